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
 * Parameters: {@code max_runtime.tasks}, {@code max_runtime.limit} (seconds), {@code max_runtime.store=true}
 * (persist every change to a journal store first, as the agent does).
 */
final class MaxRuntimeBench implements Bench {
    private static final String TASK = "long";

    @Override
    public String name() {
        return "max_runtime";
    }

    @Override
    public List<Param> params() {
        return List.of(Param.count("tasks", "concurrent mock tasks (default 200)"),
                Param.count("limit", "max_runtime in seconds (default 1)"),
                Param.flag("store", "persist to the durable journal store, as the agent does (default false)"));
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int tasks = env.count(this, "tasks", 200);
        int limit = env.count(this, "limit", 1);
        boolean durable = env.flag(this, "store", false);
        Job job = EngineHarness.job("limited", """
                job "limited" {
                  type = "batch"
                  group "g" {
                    task "long" {
                      driver      = "mock"
                      max_runtime = "%ds"
                      config { run_for = "1h" }
                    }
                  }
                }
                """.formatted(limit), tasks);
        List<Double> late = new ArrayList<>();
        try (EngineHarness h = new EngineHarness(env, env.freshDir("max-runtime"), durable,
                UnaryOperator.identity())) {
            List<AllocationState> placed = h.engine.submit(job);
            h.awaitTerminal(placed, 120L + limit);
            for (AllocationState a : placed) {
                List<TaskEvent> events = h.engine.allocation(a.id()).orElseThrow().taskStates().get(TASK).events();
                long deadline = first(events, TaskEventType.STARTED).time() + limit * 1_000_000_000L;
                late.add((first(events, TaskEventType.MAX_RUNTIME_EXCEEDED).time() - deadline) / 1e6);
            }
        }
        Percentiles p = Percentiles.of(late);
        String n = " (" + tasks + " tasks" + (limit != 1 ? ", max_runtime " + limit + " s" : "")
                + (durable ? ", store" : "") + ")";
        return List.of(Figure.info(name(), "Max Runtime Exceeded lateness p50" + n, p.p(50), "ms", ""),
                Figure.atMost(name(), "Max Runtime Exceeded lateness p99" + n, p.p(99), "ms", "", 20));
    }

    private static TaskEvent first(List<TaskEvent> events, TaskEventType type) {
        return events.stream().filter(e -> e.type() == type).findFirst()
                .orElseThrow(() -> new IllegalStateException("no " + type + " event"));
    }
}
