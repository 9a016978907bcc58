package io.drover.agent;

import io.drover.agent.faulty.FaultyDriver;
import java.io.IOException;
import java.io.OutputStream;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Writes a real PF4J plugin JAR holding {@link FaultyDriver}: a MANIFEST with Plugin-* entries, the classes of its
 * package copied from the test classpath, and {@code META-INF/extensions.idx} naming the driver.
 */
final class FaultyPluginJar {
    private FaultyPluginJar() {}

    static Path writeTo(Path file) throws IOException {
        Manifest mf = new Manifest();
        mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
        mf.getMainAttributes().putValue("Plugin-Id", "faulty-plugin");
        mf.getMainAttributes().putValue("Plugin-Version", "6.6.6");
        mf.getMainAttributes().putValue("Plugin-Provider", "A Third Party");
        mf.getMainAttributes().putValue("Plugin-Requires", ">=0.1.0");
        try (OutputStream out = Files.newOutputStream(file); JarOutputStream jar = new JarOutputStream(out, mf)) {
            jar.putNextEntry(new JarEntry("META-INF/extensions.idx"));
            jar.write((FaultyDriver.class.getName() + "\n").getBytes(StandardCharsets.UTF_8));
            jar.closeEntry();
            String pkg = FaultyDriver.class.getPackageName().replace('.', '/');
            Path dir;
            try {
                dir = Path.of(FaultyDriver.class.getResource("FaultyDriver.class").toURI()).getParent();
            } catch (URISyntaxException e) {
                throw new IOException(e);
            }
            try (Stream<Path> files = Files.list(dir)) {
                for (Path c : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                    jar.putNextEntry(new JarEntry(pkg + "/" + c.getFileName()));
                    jar.write(Files.readAllBytes(c));
                    jar.closeEntry();
                }
            }
        }
        return file;
    }
}
