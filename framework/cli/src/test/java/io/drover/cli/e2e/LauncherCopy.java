package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * A repository root in a test's temp dir ({@code DIR/root}): the launcher script copied, what it runs linked
 * (the built jar, the plugins, the sample jobs), the classpath file copied, so that the AppCDS archives the
 * launcher records there are the test's own and the repository's are never touched.
 */
final class LauncherCopy {
    private static final List<String> LINKS = List.of("sample-jobs", "plugins/dist",
            "framework/cli/target/drover-cli.jar");

    private LauncherCopy() {}

    static Path in(Path dir) throws IOException {
        Path home = Path.of(System.getProperty("drover.home")).toAbsolutePath().normalize();
        Path root = Files.createDirectories(dir.resolve("root"));
        Files.copy(home.resolve("drover"), root.resolve("drover"));
        Path target = Files.createDirectories(root.resolve("framework/cli/target"));
        Files.createSymbolicLink(target.resolve("drover-cli.jar"),
                home.resolve("framework/cli/target/drover-cli.jar"));
        Files.copy(home.resolve("framework/cli/target/classpath.txt"), target.resolve("classpath.txt"));
        Files.copy(home.resolve("framework/cli/jvm-client.args"), root.resolve("framework/cli/jvm-client.args"));
        Files.createDirectories(root.resolve("plugins"));
        Files.createSymbolicLink(root.resolve("plugins/dist"), home.resolve("plugins/dist"));
        Files.createSymbolicLink(root.resolve("sample-jobs"), home.resolve("sample-jobs"));
        return root;
    }

    /** Removes the links only (before @TempDir's cleanup warns of them or follows them). */
    static void unlink(Path dir) throws IOException {
        for (String link : LINKS) {
            Files.deleteIfExists(dir.resolve("root").resolve(link));
        }
    }
}
