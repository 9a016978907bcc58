package io.drover.cli.e2e;

import java.nio.file.Files;
import java.nio.file.Path;

/** An agent config for end-to-end tests: the test plugin dir the build fills, and a data dir under a temp dir. */
final class TestConfig {
    /** sample-jobs/ of the repository (system property {@code drover.test.samples}, set by the build). */
    static final Path SAMPLES = Path.of(System.getProperty("drover.test.samples", "../../sample-jobs"));

    private TestConfig() {}

    static Path write(Path dir) throws Exception {
        String plugins = System.getProperty("drover.test.plugins");
        if (plugins == null) {
            throw new IllegalStateException("system property drover.test.plugins is unset: run 'mvn verify'");
        }
        Path data = Files.createDirectories(dir.resolve("data"));
        return Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                client {
                  max_kill_timeout = "5s"
                }
                """.formatted(escape(data.toString()), escape(plugins)));
    }

    private static String escape(String path) {
        return path.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
