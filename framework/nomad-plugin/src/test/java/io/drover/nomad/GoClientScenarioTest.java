package io.drover.nomad;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.process.ProcessLeakCheck;
import java.io.IOException;
import java.io.InputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.util.ArrayList;
import java.util.Enumeration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.stream.Stream;
import java.util.zip.ZipEntry;
import java.util.zip.ZipFile;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Runs the Go client program (src/test/go): HashiCorp's go-plugin client launches the plugin executable exactly as
 * a Nomad client does, and drives handshake, schemas, fingerprint, the task lifecycle, a TERM-ignoring tree,
 * max_runtime, kill -9 of the plugin and RecoverTask. Its Go stubs are generated here from this module's own
 * .proto files (gen.sh: the build's protoc, protoc-gen-go and protoc-gen-go-grpc at go.mod's versions). Every
 * process it starts (plugin JVMs, tasks, shims) carries the test's marker: none may be left behind.
 */
@ExtendWith(ProcessLeakCheck.class)
class GoClientScenarioTest {
    private static final Path MODULE = Path.of("").toAbsolutePath();
    private static final Path TARGET = MODULE.resolve("target");

    @Test
    void goPluginClientDrivesThePlugin() throws Exception {
        Path work = TARGET.resolve("go-client");
        copyTree(MODULE.resolve("src/test/go"), work);
        Path include = extractWellKnownProtos(TARGET.resolve("go-client-include"));
        Path protoc = Path.of(System.getProperty("drover.nomad.protoc"));
        protoc.toFile().setExecutable(true);
        run(work, List.of("./gen.sh", protoc.toString(), MODULE.resolve("src/main/proto").toString(),
                include.toString()), Map.of(), 600);

        Path pluginDir = work.resolve("plugin_dir");
        List<String> java = List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(), "-cp",
                System.getProperty("java.class.path"), NomadPlugin.class.getName());
        PluginDirLayout.write(pluginDir, java, List.of("-plugin-dir", System.getProperty("drover.nomad.plugins")));

        Map<String, String> env = new java.util.HashMap<>(ProcessLeakCheck.env());
        env.put("DROVER_NOMAD_PLUGIN", pluginDir.resolve("drover-raw_exec").toString());
        String out = run(work, List.of("go", "test", "-count=1", "-v", "./..."), env, 600);
        assertThat(out).contains("--- PASS: TestKillPluginAndRecover").contains("--- PASS: TestMaxRuntime")
                .contains("--- PASS: TestStopKillsATermIgnoringTree").doesNotContain("--- FAIL");
    }

    /** Runs a command in {@code dir}; fails with its output unless it exits 0. */
    static String run(Path dir, List<String> command, Map<String, String> env, int seconds) throws Exception {
        ProcessBuilder pb = new ProcessBuilder(command).directory(dir.toFile()).redirectErrorStream(true);
        pb.environment().putAll(env);
        pb.environment().put("GOFLAGS", "-mod=mod");
        Path log = Files.createTempFile(TARGET, "go-", ".log");
        pb.redirectOutput(log.toFile());
        Process p = pb.start();
        if (!p.waitFor(seconds, TimeUnit.SECONDS)) {
            p.descendants().forEach(ProcessHandle::destroyForcibly);
            p.destroyForcibly();
            p.waitFor();
            throw new AssertionError(command + " timed out:\n" + Files.readString(log));
        }
        String out = Files.readString(log);
        System.out.println(out);
        if (p.exitValue() != 0) {
            throw new AssertionError(command + " exited " + p.exitValue() + ":\n" + out);
        }
        return out;
    }

    /** The well-known google/protobuf/*.proto files, from the protobuf-java jar on the classpath. */
    static Path extractWellKnownProtos(Path dir) throws IOException {
        Path jar;
        try {
            jar = Path.of(com.google.protobuf.Duration.class.getProtectionDomain().getCodeSource().getLocation().toURI());
        } catch (java.net.URISyntaxException e) {
            throw new IOException(e);
        }
        try (ZipFile zip = new ZipFile(jar.toFile())) {
            Enumeration<? extends ZipEntry> entries = zip.entries();
            while (entries.hasMoreElements()) {
                ZipEntry e = entries.nextElement();
                if (e.getName().startsWith("google/protobuf/") && e.getName().endsWith(".proto")) {
                    Path to = dir.resolve(e.getName());
                    Files.createDirectories(to.getParent());
                    try (InputStream in = zip.getInputStream(e)) {
                        Files.copy(in, to, StandardCopyOption.REPLACE_EXISTING);
                    }
                }
            }
        }
        return dir;
    }

    static void copyTree(Path from, Path to) throws IOException {
        List<Path> files = new ArrayList<>();
        try (Stream<Path> s = Files.walk(from)) {
            s.forEach(files::add);
        }
        for (Path f : files) {
            Path rel = from.relativize(f);
            if (rel.startsWith("pb") || rel.startsWith("bin")) {
                continue;
            }
            Path t = to.resolve(rel.toString());
            if (Files.isDirectory(f)) {
                Files.createDirectories(t);
            } else {
                Files.copy(f, t, StandardCopyOption.REPLACE_EXISTING, StandardCopyOption.COPY_ATTRIBUTES);
            }
        }
        Files.writeString(to.resolve(".copied-by-GoClientScenarioTest"), "", StandardCharsets.UTF_8);
    }
}
