package io.drover.core.reschedule;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobType;
import io.drover.core.spec.TaskGroup;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.time.ManualExecutor;
import io.drover.core.time.Nanos;
import io.drover.driver.tck.VirtualTimers;
import java.time.Duration;
import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CopyOnWriteArrayList;
import org.junit.jupiter.api.Test;

/**
 * The contract {@code drover run} waits on (issue 16): a replacement is {@link Rescheduler#pending} from its
 * failure until its target has returned, then {@link Rescheduler#onSettled} runs, so "every allocation terminal and
 * nothing pending" is never true between a failure and its replacement. Virtual time, a manual placer: no sleeps.
 */
class ReschedulerSettledTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");

    private final VirtualTimers timers = new VirtualTimers(T0);
    private final ManualExecutor placer = new ManualExecutor();
    private final Rescheduler rescheduler = new Rescheduler(timers, placer, "node-1");
    private final List<String> seen = new CopyOnWriteArrayList<>();

    /** A failed allocation of a batch job without a reschedule block: Nomad's 1 attempt, 5 s constant delay. */
    private static AllocationState failed(String id) {
        Job job = new Job("example", "example", JobType.BATCH, List.of("dc1"),
                List.of(new TaskGroup("g", 1, JobType.BATCH.defaultRestart(), null, List.of(), 0)), "test");
        return new AllocationState(id, "example.g[0]", "example", "g", 0, ClientStatus.FAILED, "Failed tasks",
                DesiredStatus.RUN, "", Nanos.of(T0), Nanos.of(T0), Map.of(), job);
    }

    private String state(String what) {
        return what + " pending=" + rescheduler.pending("a01") + " idle=" + rescheduler.idle();
    }

    @Test
    void aReplacementStaysPendingUntilItsTargetHasPlacedItThenSettles() {
        rescheduler.target((failed, beforeStart) -> {
            seen.add(state("placing"));
            beforeStart.accept("a02");
            return Optional.of(failed);
        });
        rescheduler.onSettled(() -> seen.add(state("settled")));

        rescheduler.onUpdate(failed("a01"));
        assertThat(state("armed")).isEqualTo("armed pending=true idle=false");

        timers.advance(Duration.ofSeconds(5)); // the delay passes: the timer hands the placement to the placer
        assertThat(seen).isEmpty();
        assertThat(state("handed over")).isEqualTo("handed over pending=true idle=false");

        placer.drain();
        assertThat(seen).containsExactly("placing pending=true idle=false", "settled pending=false idle=true");
        assertThat(rescheduler.lineage("a02").previous()).isEqualTo("a01");
        assertThat(rescheduler.lineage("a01").next()).isEqualTo("a02");
    }

    @Test
    void aReplacementCancelledAfterItsTimerFiredIsNotPlacedAndStillSettles() {
        rescheduler.target((failed, beforeStart) -> {
            seen.add("placed");
            return Optional.of(failed);
        });
        rescheduler.onSettled(() -> seen.add(state("settled")));
        rescheduler.onUpdate(failed("a01"));
        timers.advance(Duration.ofSeconds(5));

        rescheduler.cancel(List.of("a01")); // a Ctrl-C between the timer and the placement
        placer.drain();

        assertThat(seen).containsExactly("settled pending=false idle=true");
        assertThat(rescheduler.lineage("a01").next()).isNull();
    }
}
