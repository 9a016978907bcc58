package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.config.ClientConfig;
import io.drover.core.config.GcKillPolicy;
import io.drover.core.config.TaskLimits;
import io.drover.core.spec.Task;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 12, finding 8: no bound on the tasks of one job let 10,000 allocations × 20 tasks exhaust the agent's
 * heap. The client's {@code max_tasks_per_job} (default 10,000) refuses such a job at registration with one line
 * (400, nothing placed), and {@code max_tasks} (default 20,000) bounds the live tasks of the whole agent (429,
 * accepted again once allocations end).
 */
class TaskLimitsApiTest {
    @TempDir
    Path tmp;

    private static String attackJob(int count, int tasks) throws Exception {
        List<Map<String, Object>> ts = new ArrayList<>();
        for (int i = 0; i < tasks; i++) {
            ts.add(Map.of("Name", "t" + i, "Driver", "mock", "Config", Map.of("run_for", "1h")));
        }
        return TestAgent.JSON.writeValueAsString(Map.of("Job", Map.of("ID", "flood", "Type", "batch",
                "TaskGroups", List.of(Map.of("Name", "g", "Count", count, "Tasks", ts)))));
    }

    @Test
    void tenThousandAllocationsOfTwentyTasksAreRefusedInOneLineAndNothingIsPlaced() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp r = api.call("PUT", "/v1/jobs", attackJob(10_000, 20));

            assertThat(r.status()).as(r.body()).isEqualTo(400);
            assertThat(r.error()).isEqualTo("request.json: job \"flood\": the job places 200000 tasks (each group's "
                    + "count times its tasks); at most 10000 per job (client max_tasks_per_job)");
            assertThat(api.agent.engine().allocations()).isEmpty();
            assertThat(api.agent.engine().liveTasks()).isZero();
            assertThat(api.get("/v1/jobs").json()).isEmpty();
        }
    }

    private static ClientConfig limits(int perJob, int total) {
        ClientConfig d = ClientConfig.defaults();
        return new ClientConfig(d.gcInterval(), d.gcMaxAllocs(), d.gcDiskUsageThreshold(), d.gcInodeUsageThreshold(),
                d.gcParallelDestroys(), GcKillPolicy.PRESERVE_STATES, d.maxKillTimeout(), d.recordRetention(),
                d.driverStartTimeout(), new TaskLimits(perJob, total));
    }

    @Test
    void maxTasksBoundsTheLiveTasksOfTheAgentAndFreesAsAllocationsEnd() throws Exception {
        try (TestAgent api = TestAgent.start(tmp, null, null, limits(6, 8))) {
            Task[] three = {task("a", "run_for", "1h"), task("b", "run_for", "1h"), task("c", "run_for", "1h")};
            var first = api.agent.jobs().register(batch("first", 2, three)); // 6 tasks, at the per-job bound
            api.agent.jobs().recorded(first).get(20, java.util.concurrent.TimeUnit.SECONDS);
            assertThat(api.agent.engine().liveTasks()).isEqualTo(6);

            TestAgent.Resp perJob = api.call("PUT", "/v1/jobs", attackJob(7, 1));
            assertThat(perJob.status()).as(perJob.body()).isEqualTo(400);
            assertThat(perJob.error()).contains("the job places 7 tasks", "at most 6 per job");

            TestAgent.Resp total = api.call("PUT", "/v1/jobs", attackJob(3, 1));
            assertThat(total.status()).as(total.body()).isEqualTo(429);
            assertThat(total.error()).isEqualTo("job flood: the job places 3 tasks and 6 are live already; at most 8 "
                    + "in all (client max_tasks); try again once some allocations have ended");
            assertThat(catchThrowable(() -> api.agent.jobs().register(batch("other", 3, task("x", "run_for", "1h")))))
                    .isInstanceOf(JobRegistry.TooManyTasksException.class);
            assertThat(api.agent.jobs().job("flood")).isEmpty();

            api.agent.jobs().stop("first");
            for (String id : first.entry().allocIds()) {
                api.agent.engine().terminal(id).get(20, java.util.concurrent.TimeUnit.SECONDS);
            }
            Await.until("live tasks freed", () -> api.agent.engine().liveTasks() == 0);
            TestAgent.Resp again = api.call("PUT", "/v1/jobs", attackJob(3, 1));
            assertThat(again.status()).as(again.body()).isEqualTo(200);
        }
    }
}
