package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.DataInputStream;
import java.io.IOException;
import java.io.InputStream;
import java.net.URL;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Arrays;
import java.util.jar.JarFile;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * The CLI runs picocli compiled for Java 17 (third-party/picocli17), not picocli's own jar of Java 5 class files:
 * only version-61 classes are archived verified and linked by AppCDS (docs/performance.md, "Client commands").
 */
class PicocliBuildTest {
    @Test
    void picocliIsCompiledForJava17WithoutIndyStringConcatenation() throws IOException {
        try (InputStream in = CommandLine.class.getResourceAsStream("CommandLine.class")) {
            DataInputStream data = new DataInputStream(in);
            assertThat(data.readInt()).isEqualTo(0xCAFEBABE);
            data.readUnsignedShort(); // minor
            assertThat(data.readUnsignedShort()).as("class file major version").isEqualTo(61);
            // -XDstringConcat=inline: an invokedynamic string concatenation spins hidden classes at every start,
            // which no archive holds (35 of them for 'alloc status')
            byte[] bytes = in.readAllBytes();
            assertThat(new String(bytes, java.nio.charset.StandardCharsets.ISO_8859_1))
                    .doesNotContain("makeConcatWithConstants");
        }
    }

    @Test
    void picocliJarIsNotOnTheClassPathAndTheLicenceTravelsWithTheClasses() throws Exception {
        assertThat(Arrays.asList(System.getProperty("java.class.path").split(java.io.File.pathSeparator)))
                .noneMatch(p -> p.contains("info/picocli") || Path.of(p).getFileName().toString()
                        .startsWith("picocli-"));
        URL where = CommandLine.class.getProtectionDomain().getCodeSource().getLocation();
        Path path = Path.of(where.toURI());
        if (Files.isDirectory(path)) { // a reactor build before 'package': the module's target/classes
            assertThat(path.toString()).contains("picocli17");
            assertThat(path.resolve("META-INF/LICENSE")).isRegularFile();
            assertThat(path.resolve("META-INF/NOTICE")).isRegularFile();
            return;
        }
        assertThat(path.getFileName().toString()).startsWith("drover-picocli17");
        try (JarFile f = new JarFile(path.toFile())) {
            assertThat(f.getEntry("META-INF/LICENSE")).isNotNull();
            assertThat(f.getEntry("META-INF/NOTICE")).isNotNull();
            assertThat(f.getManifest().getMainAttributes().getValue("Implementation-Version"))
                    .isEqualTo(CommandLine.VERSION);
        }
    }
}
