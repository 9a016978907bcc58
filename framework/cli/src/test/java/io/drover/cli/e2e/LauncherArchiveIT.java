package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs after packaging: the first client command after a build records the AppCDS archive that every command
 * but {@code agent} maps (docs/cli.md, the launcher), and the next one loads the CLI's own classes and
 * picocli's (Java 5 class files, which a dynamic archive cannot hold) from it. The same training records the
 * smaller archive of the short read-only commands, which they map instead. The training run starts an
 * in-process agent, the seed job's processes and the client training's JVM: none may be left.
 */
class LauncherArchiveIT {
    @TempDir
    Path dir;

    @AfterEach
    void noProcessLeft() throws Exception {
        List<String> left = NoProcessLeft.under(dir);
        LauncherCopy.unlink(dir);
        left.forEach(p -> ProcessHandle.of(Long.parseLong(p.split(" ")[0])).ifPresent(ProcessHandle::destroyForcibly));
        assertThat(left).as("processes left running").isEmpty();
    }

    @Test
    void theFirstClientCommandRecordsTheArchiveThatTheNextOneLoadsFrom() throws Exception {
        Path root = LauncherCopy.in(dir);
        Path jsa = root.resolve("framework/cli/target/drover-cli.jsa");

        Result first = launch(root, null, "job", "status", "-address", "http://127.0.0.1:1");
        assertThat(first.code()).as("no agent: exit 1; stderr:%n%s", first.err()).isEqualTo(1);
        assertThat(first.err()).startsWith("Error: no Drover agent at http://127.0.0.1:1 (connection refused)");
        assertThat(jsa).as("the archive recorded by the first command").isNotEmptyFile();
        try (var files = Files.list(jsa.getParent())) {
            assertThat(files.map(f -> f.getFileName().toString())).as("no temporary file left")
                    .noneMatch(n -> n.endsWith(".tmp") || n.endsWith(".classlist"));
        }

        Path client = root.resolve("framework/cli/target/drover-client.jsa");
        assertThat(client).as("the short commands' archive, recorded by the same training").isNotEmptyFile();
        assertThat(Files.size(client)).as("holding only what they load").isLessThan(Files.size(jsa) / 2);
        Result shortOne = launch(root, "-XX:+PrintSharedArchiveAndExit", "alloc", "status", "--help");
        assertThat(shortOne.out() + shortOne.err()).contains("Static archive name: " + client);
        Result other = launch(root, "-XX:+PrintSharedArchiveAndExit", "job", "run", "--help");
        assertThat(other.out() + other.err()).contains("Static archive name: " + jsa);

        Path log = dir.resolve("class-load.txt");
        Result help = launch(root, "-Xlog:class+load=info,cds=info:file=" + log, "alloc", "status", "--help");
        assertThat(help.code()).isZero();
        assertThat(help.out()).startsWith("Usage: drover alloc status");
        List<String> loads = Files.readAllLines(log);
        assertThat(loads).as("the CLI's classes come from the archive")
                .anyMatch(l -> l.contains(" io.drover.cli.Main source: shared objects file"));
        assertThat(loads).as("and picocli's, which only a static archive holds")
                .anyMatch(l -> l.contains(" picocli.CommandLine source: shared objects file"));
        assertThat(loads).as("with its heap objects (dumped and run under G1): the full module graph")
                .anyMatch(l -> l.contains("full module graph: enabled"));
    }

    private record Result(int code, String out, String err) {}

    private Result launch(Path root, String jvmFlags, String... args) throws Exception {
        Path cwd = Files.createDirectories(dir.resolve("cwd"));
        Path tmp = Files.createDirectories(dir.resolve("tmp"));
        List<String> command = new java.util.ArrayList<>(List.of(root.resolve("drover").toString()));
        command.addAll(List.of(args));
        ProcessBuilder pb = new ProcessBuilder(command).directory(cwd.toFile())
                .redirectOutput(dir.resolve("out.txt").toFile()).redirectError(dir.resolve("err.txt").toFile());
        pb.environment().put("DROVER_BUILD", "0");
        pb.environment().remove("DROVER_CDS");
        pb.environment().remove("DROVER_ADDR");
        pb.environment().put("JAVA_TOOL_OPTIONS", "-Djava.io.tmpdir=" + tmp + (jvmFlags == null ? "" : " " + jvmFlags));
        Process p = pb.start();
        assertThat(p.waitFor(180, TimeUnit.SECONDS)).as("the launcher ended").isTrue();
        return new Result(p.exitValue(), Files.readString(dir.resolve("out.txt")),
                String.join("\n", Files.readAllLines(dir.resolve("err.txt")).stream()
                        .filter(l -> !l.startsWith("Picked up JAVA_TOOL_OPTIONS")).toList()));
    }
}
