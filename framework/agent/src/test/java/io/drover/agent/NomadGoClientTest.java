package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Nomad's own Go {@code api} client (github.com/hashicorp/nomad/api, from the Go module proxy) against a real
 * agent on a loopback port: runs {@code go test} in {@code src/test/go/nomadapi} with {@code NOMAD_ADDR} pointing
 * at the agent. The Go side registers jobs, follows them with blocking queries, reads allocations, events, logs,
 * summaries, versions, evaluations and the node, tries a stale {@code EnforceIndex}, reads the services of a running
 * job ({@code Services().List()}, {@code .Get(name)}, {@code .Delete}), and stops them. Needs the
 * {@code go} toolchain (Go 1.26, on the project's machines); a missing one fails the test with that line.
 * Proves no process is left behind: every process {@code go test} starts carries this test's marker variable.
 */
class NomadGoClientTest extends RunningAgentTest {
    static final Path MODULE = Path.of("src/test/go/nomadapi");
    static final long GO_TIMEOUT_MINUTES = 8;

    final String marker = UUID.randomUUID().toString();

    @Test
    void nomadsGoApiClientRegistersFollowsReadsLogsAndStopsJobs() throws Exception {
        Path out = tmp.resolve("go-test.out");
        ProcessBuilder pb = new ProcessBuilder(goBinary(), "test", "-count=1", "-v", "-timeout", "4m", "./...")
                .directory(MODULE.toFile()).redirectErrorStream(true).redirectOutput(out.toFile());
        Map<String, String> env = pb.environment();
        env.put("NOMAD_ADDR", api.agent.address());
        env.put("GOTOOLCHAIN", "local");
        env.put("GOFLAGS", "-mod=readonly -buildvcs=false");
        env.put("DROVER_GO_TEST_MARKER", marker);
        env.remove("NOMAD_TOKEN");
        Process go = pb.start();
        boolean ended = go.waitFor(GO_TIMEOUT_MINUTES, TimeUnit.MINUTES);
        if (!ended) {
            go.descendants().forEach(ProcessHandle::destroyForcibly);
            go.destroyForcibly().waitFor();
        }
        String text = Files.readString(out, StandardCharsets.UTF_8);
        assertThat(ended).as("go test ended within %d minutes:\n%s", GO_TIMEOUT_MINUTES, text).isTrue();
        assertThat(go.exitValue()).as("go test:\n%s", text).isZero();
        assertThat(text).contains("--- PASS: TestClusterReads", "--- PASS: TestRegisterFollowLogsStop",
                "--- PASS: TestStopARunningJob", "--- PASS: TestConstraintsDecidedOnThisNode",
                "--- PASS: TestRuntimeBlocksRoundTrip", "--- PASS: TestDispatchAndPeriodicForce",
                "--- PASS: TestNativeServiceDiscovery", "--- PASS: TestVariables");
        assertThat(leftBehind()).as("processes of go test left running").isEmpty();
        assertThat(api.agent.jobs().job("go-api").orElseThrow().stopped()).isTrue();
        assertThat(api.agent.jobs().job("go-api-long")).as("purged by the Go client").isEmpty();
        assertThat(api.agent.jobs().job("go-api-render")).as("purged by the Go client").isEmpty();
        assertThat(api.agent.jobs().children("go-api-render")).as("its dispatched child").hasSize(1);
        assertThat(api.agent.engine().services().all()).as("no service left registered").isEmpty();
    }

    /** {@code go} on the PATH, else where the Go distribution installs it. */
    static String goBinary() {
        for (String dir : System.getenv().getOrDefault("PATH", "").split(":")) {
            if (!dir.isEmpty() && Files.isExecutable(Path.of(dir, "go"))) {
                return Path.of(dir, "go").toString();
            }
        }
        Path usual = Path.of("/usr/local/go/bin/go");
        if (Files.isExecutable(usual)) {
            return usual.toString();
        }
        throw new AssertionError("no go toolchain on the PATH or in /usr/local/go: this test runs Nomad's Go api "
                + "client (install Go 1.26)");
    }

    /** Live processes whose environment carries this test's marker. */
    private List<String> leftBehind() throws IOException {
        List<String> found = new ArrayList<>();
        byte[] needle = ("DROVER_GO_TEST_MARKER=" + marker).getBytes(StandardCharsets.UTF_8);
        try (var procs = Files.list(Path.of("/proc"))) {
            for (Path p : (Iterable<Path>) procs::iterator) {
                String name = p.getFileName().toString();
                if (!name.chars().allMatch(Character::isDigit)) {
                    continue;
                }
                try {
                    byte[] environ = Files.readAllBytes(p.resolve("environ"));
                    if (contains(environ, needle)) {
                        found.add(name + " " + Files.readString(p.resolve("comm")).trim());
                    }
                } catch (IOException e) {
                    // gone meanwhile, or not ours to read
                }
            }
        }
        return found;
    }

    private static boolean contains(byte[] hay, byte[] needle) {
        outer:
        for (int i = 0; i + needle.length <= hay.length; i++) {
            for (int j = 0; j < needle.length; j++) {
                if (hay[i + j] != needle[j]) {
                    continue outer;
                }
            }
            return true;
        }
        return false;
    }
}
