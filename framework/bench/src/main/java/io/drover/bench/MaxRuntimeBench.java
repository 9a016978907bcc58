package io.drover.bench;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import java.util.ArrayList;
import java.util.List;
import java.util.function.UnaryOperator;

/**
 * Issue 5: max_runtime expiry lateness over 200 concurrent mock tasks on the wall clock (max_runtime 1 s): the
 * time of each task's {@code Max Runtime Exceeded} event minus (its {@code Started} event + 1 s). Aim p99 <= 20 ms.
 */
final class MaxRuntimeBench implements Bench {
    private static final String TASK = "long";

    @Override
    public String name() {
        return "max_runtime";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int tasks = 200;
        Job job = EngineHarness.job("limited", """
                job "limited" {
                  type = "batch"
                  group "g" {
                    count = %d
                    task "long" {
                      driver      = "mock"
                      max_runtime = "1s"
                      config { run_for = "1h" }
                    }
                  }
                }
                """.formatted(tasks));
        List<Double> late = new ArrayList<>();
        try (EngineHarness h = new EngineHarness(env, env.workDir().resolve("max-runtime"), false,
                UnaryOperator.identity())) {
            List<AllocationState> placed = h.engine.submit(job);
            h.awaitTerminal(placed, 120);
            for (AllocationState a : placed) {
                List<TaskEvent> events = h.engine.allocation(a.id()).orElseThrow().taskStates().get(TASK).events();
                long deadline = first(events, TaskEventType.STARTED).time() + 1_000_000_000L;
                late.add((first(events, TaskEventType.MAX_RUNTIME_EXCEEDED).time() - deadline) / 1e6);
            }
        }
        Percentiles p = Percentiles.of(late);
        String n = " (" + tasks + " tasks)";
        return List.of(Figure.info(name(), "Max Runtime Exceeded lateness p50" + n, p.p(50), "ms", ""),
                Figure.atMost(name(), "Max Runtime Exceeded lateness p99" + n, p.p(99), "ms", "", 20));
    }

    private static TaskEvent first(List<TaskEvent> events, TaskEventType type) {
        return events.stream().filter(e -> e.type() == type).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + type + " event"));
    }
}
