package io.drover.core.store;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.state.AllocationState;
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.HashMap;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** kill -9 of a real child JVM that is persisting: every acknowledged event must be on disk. */
class CrashTest {
    @TempDir
    Path tmp;

    @Test
    void everyAcknowledgedEventSurvivesKill9() throws Exception {
        Path dir = tmp.resolve("state");
        String java = Path.of(System.getProperty("java.home"), "bin", "java").toString();
        ProcessBuilder pb = new ProcessBuilder(java, "-cp", System.getProperty("java.class.path"),
                CrashChild.class.getName(), dir.toString());
        pb.redirectError(tmp.resolve("child.err").toFile());
        Process child = pb.start();
        Map<String, Integer> acked = new HashMap<>();
        try {
            BufferedReader in = new BufferedReader(new InputStreamReader(child.getInputStream(),
                    StandardCharsets.UTF_8));
            int acks = 0;
            String line;
            while (acks < 400 && (line = in.readLine()) != null) {
                String[] f = line.split(" ");
                if (f.length == 3 && f[0].equals("ack")) {
                    acked.merge(f[1], Integer.parseInt(f[2]), Math::max);
                    acks++;
                }
            }
            assertThat(acks).as("acknowledgements read (see child.err)").isEqualTo(400);
        } finally {
            child.destroyForcibly(); // SIGKILL
            assertThat(child.waitFor(30, TimeUnit.SECONDS)).isTrue();
        }
        assertThat(child.exitValue()).isEqualTo(137);
        try (JournalStore store = JournalStore.open(dir)) {
            Map<String, AllocationState> loaded = new HashMap<>();
            store.load().forEach(s -> loaded.put(s.id(), s));
            acked.forEach((id, events) -> {
                assertThat(loaded).containsKey(id);
                assertThat(loaded.get(id).taskStates().get("main").events()).as(id).hasSizeGreaterThanOrEqualTo(events);
            });
        }
    }
}
