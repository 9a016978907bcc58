package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 8, the second half: an agent whose heap runs out ends with exit code 1 and one line, instead
 * of living on with dead threads (no service, SIGTERM ignored). A real agent child JVM with a 64 MiB heap and the
 * task limits raised out of the way is sent 10,000 allocations of 100 tasks.
 */
@Timeout(value = 180, unit = TimeUnit.SECONDS)
class AgentOutOfMemoryTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new ArrayList<>();

    @AfterEach
    void noAgentAndNoTaskLeft() throws Exception {
        NoProcessLeft.closeAndAssertNone(agents, tmp);
    }

    @Test
    void anAgentOutOfHeapExitsWithCodeOne() throws Exception {
        Path config = AgentTestConfig.write(tmp, """
                  max_tasks_per_job = 2000000
                  max_tasks         = 2000000
                """);
        AgentProcess agent = AgentProcess.start(List.of(), List.of("-Xmx64m"), config, tmp.resolve("agent.err"));
        agents.add(agent);
        String addr = agent.awaitAddress(Duration.ofSeconds(60));
        List<Map<String, Object>> tasks = new ArrayList<>();
        for (int i = 0; i < 100; i++) {
            tasks.add(Map.of("Name", "t" + i, "Driver", "mock", "Config", Map.of("run_for", "1h")));
        }
        String flood = JSON.writeValueAsString(Map.of("Job", Map.of("ID", "flood", "Type", "batch",
                "TaskGroups", List.of(Map.of("Name", "g", "Count", 10_000, "Tasks", tasks)))));

        try {
            AgentApi.send("PUT", addr + "/v1/jobs", flood);
        } catch (java.io.IOException | RuntimeException e) {
            // the agent may die before it answers: what matters is how it ends
        }

        assertThat(agent.process().waitFor(120, TimeUnit.SECONDS)).as("agent exited; log:\n%s", agent.stderr()).isTrue();
        assertThat(agent.process().exitValue()).as(agent.stderr()).isEqualTo(1);
        assertThat(agent.stderr()).contains("out of memory");
    }
}
