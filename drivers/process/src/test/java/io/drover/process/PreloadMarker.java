package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import org.junit.jupiter.api.Assumptions;

/**
 * A "task-written" LD_PRELOAD library for the tests that replay issue 12's preload attack: on load it creates
 * {@code marker-uid-<euid>} in {@code $MARKER_HOST_DIR} and in {@code /local} (src/test/resources/preload-marker.c),
 * so a test sees which users loaded it. Compiled with the machine's gcc; a test without gcc is skipped.
 */
public final class PreloadMarker {
    public static final String DIR_VAR = "MARKER_HOST_DIR";

    private PreloadMarker() {}

    /** gcc -shared of the library into {@code dir}; skips the calling test when gcc is missing. */
    public static Path compile(Path dir) throws Exception {
        Path source = dir.resolve("preload-marker.c");
        try (InputStream in = PreloadMarker.class.getResourceAsStream("/preload-marker.c")) {
            Files.copy(in, source);
        }
        Path library = dir.resolve("preload-marker.so");
        Process gcc;
        try {
            gcc = new ProcessBuilder("gcc", "-shared", "-fPIC", "-o", library.toString(), source.toString())
                    .redirectErrorStream(true).start();
        } catch (IOException e) {
            Assumptions.abort("gcc is not installed: cannot build the LD_PRELOAD library of this replay");
            throw e;
        }
        String out = new String(gcc.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(gcc.waitFor(60, TimeUnit.SECONDS)).isTrue();
        assertThat(gcc.exitValue()).as(out).isZero();
        return library;
    }

    /** The markers in {@code dir}, by name ({@code marker-uid-0} means root loaded the library). */
    public static List<String> markers(Path dir) throws IOException {
        try (Stream<Path> files = Files.list(dir)) {
            return files.map(p -> p.getFileName().toString()).filter(n -> n.startsWith("marker-uid-")).sorted()
                    .toList();
        }
    }
}
