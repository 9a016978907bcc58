package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Set;
import java.util.TreeSet;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Runs after packaging: the user's command {@code ./drover bench --quick -json} (the launcher, told not to build)
 * measures every bench and reports a figure for each, none failing to measure, in under 2 minutes; no process
 * is left under its scratch dir. Aims are reported, not asserted: a loaded CI machine may miss them.
 */
class BenchQuickIT {
    @TempDir
    Path dir;

    @Test
    void quickBenchMeasuresEveryBench() throws Exception {
        Path home = Path.of(System.getProperty("drover.home")).toAbsolutePath().normalize();
        Path work = dir.resolve("work");
        Path out = dir.resolve("bench.json");
        Path err = dir.resolve("bench.err");
        ProcessBuilder pb = new ProcessBuilder(home.resolve("drover").toString(), "bench", "--quick", "-json",
                "--work-dir", work.toString()).redirectOutput(out.toFile()).redirectError(err.toFile());
        pb.environment().put("DROVER_BUILD", "0");
        long t0 = System.nanoTime();
        Process p = pb.start();
        boolean ended = p.waitFor(4, TimeUnit.MINUTES);
        if (!ended) {
            p.destroyForcibly().waitFor();
        }
        double seconds = (System.nanoTime() - t0) / 1e9;
        String log = Files.readString(err, StandardCharsets.UTF_8);
        assertThat(ended).as("drover bench --quick ended; stderr:%n%s", log).isTrue();
        // The figures first: a bench that failed to measure names its error there (exit code 1 says only that).
        JsonNode doc = Files.size(out) > 0 ? new ObjectMapper().readTree(out.toFile()) : null;
        assertThat(doc).as("JSON on stdout; exit code %d, stderr:%n%s", p.exitValue(), log).isNotNull();
        Set<String> benches = new TreeSet<>();
        List<String> errors = new ArrayList<>();
        for (JsonNode f : doc.path("figures")) {
            benches.add(f.path("bench").asText());
            if (f.path("verdict").asText().equals("ERROR")) {
                errors.add(f.path("bench").asText() + ": " + f.path("baseline").asText());
            }
            assertThat(f.path("metric").asText()).isNotBlank();
        }
        assertThat(errors).as("benches that failed to measure; stderr:%n%s", log).isEmpty();
        assertThat(p.exitValue()).as("exit code; stderr:%n%s", log).isZero();
        assertThat(benches).containsExactlyInAnyOrder("launch", "lifecycle", "escalation", "escalation_poststop",
                "max_runtime", "gc", "concurrent", "store", "seed_run", "agent_start", "alloc_get", "cli", "nomad_plugin");
        System.out.printf("drover bench --quick: %.1f s%n%s", seconds, log);
        assertThat(NoProcessLeft.under(work)).isEmpty();
    }
}
