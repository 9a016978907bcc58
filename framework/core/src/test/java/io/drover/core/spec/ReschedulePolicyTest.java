package io.drover.core.spec;

import static org.assertj.core.api.Assertions.assertThat;

import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** The policy's defaults, merge and delay functions against Nomad's (structs.go, alloc.go NextDelay). */
class ReschedulePolicyTest {
    private static final long S = 1_000_000_000L;

    private static Job job(JobType type, Map<String, Object> jobBlock, Map<String, Object> groupBlock) {
        TaskGroup g = new TaskGroup("g", 1, RestartPolicy.BATCH_DEFAULT, null, List.of(), 0, GroupRuntime.NONE,
                groupBlock.isEmpty() ? ClusterFields.NONE : new ClusterFields(Map.of("ReschedulePolicy", groupBlock)));
        return new Job("j", "j", type, List.of("dc1"), List.of(g), "t", JobRuntime.DEFAULT, List.of(),
                Job.DEFAULT_PRIORITY, jobBlock.isEmpty() ? ClusterFields.NONE
                        : new ClusterFields(Map.of("Reschedule", jobBlock)));
    }

    private static ReschedulePolicy of(Job j) {
        return ReschedulePolicy.of(j, j.groups().get(0));
    }

    @Test
    void defaultsAreNomadsAndSystemJobsNeverReschedule() {
        assertThat(of(job(JobType.SERVICE, Map.of(), Map.of()))).isEqualTo(ReschedulePolicy.SERVICE_DEFAULT);
        assertThat(of(job(JobType.BATCH, Map.of(), Map.of()))).isEqualTo(ReschedulePolicy.BATCH_DEFAULT);
        assertThat(of(job(JobType.SYSTEM, Map.of(), Map.of("Attempts", 3L))).enabled()).isFalse();
        assertThat(of(job(JobType.SYSBATCH, Map.of(), Map.of("Attempts", 3L))).enabled()).isFalse();
    }

    @Test
    void theGroupOverridesTheJobKeyByKey() {
        ReschedulePolicy p = of(job(JobType.BATCH, Map.of("Attempts", 3L, "Delay", 7 * S),
                Map.of("Delay", 9 * S)));
        assertThat(p.attempts()).isEqualTo(3);
        assertThat(p.delay()).isEqualTo(Duration.ofSeconds(9));
        assertThat(p.interval()).isEqualTo(Duration.ofHours(24));
        assertThat(of(job(JobType.SERVICE, Map.of(), Map.of("Attempts", 0L, "Unlimited", false))).enabled())
                .isFalse();
    }

    @Test
    void fibonacciGrowsToMaxDelayAndALateFailureResetsIt() {
        ReschedulePolicy p = new ReschedulePolicy(0, Duration.ZERO, Duration.ofSeconds(5), "fibonacci",
                Duration.ofSeconds(30), true);
        List<ReschedulePolicy.Attempt> earlier = new ArrayList<>();
        List<Long> delays = new ArrayList<>();
        long t = 0;
        for (int i = 0; i < 7; i++) {
            Duration d = p.nextDelay(earlier, t);
            delays.add(d.toSeconds());
            t += d.toNanos();
            earlier.add(new ReschedulePolicy.Attempt(t, d));
            t += S; // each replacement fails 1 s after it is placed
        }
        assertThat(delays).containsExactly(5L, 5L, 10L, 15L, 25L, 30L, 30L);
        // a failure 1 h after the last replacement starts again from the delay
        assertThat(p.nextDelay(earlier, t + 3600 * S)).isEqualTo(Duration.ofSeconds(5));
        // and after that reset the series restarts (Nomad's "fibN2 == max && fibN1 == delay")
        List<ReschedulePolicy.Attempt> reset = new ArrayList<>(earlier);
        reset.add(new ReschedulePolicy.Attempt(t + 3605 * S, Duration.ofSeconds(5)));
        assertThat(p.nextDelay(reset, t + 3606 * S)).isEqualTo(Duration.ofSeconds(5));
    }

    @Test
    void aNextDelayAsLongAsTheIntervalIsNotEligible() {
        ReschedulePolicy p = new ReschedulePolicy(3, Duration.ofSeconds(30), Duration.ofSeconds(20), "exponential",
                Duration.ZERO, false);
        List<ReschedulePolicy.Attempt> one = List.of(new ReschedulePolicy.Attempt(0, Duration.ofSeconds(20)));
        assertThat(p.eligible(List.of(), S)).isTrue();
        assertThat(p.eligible(one, S)).isFalse(); // next delay 40 s >= interval 30 s, as Nomad's nextRescheduleTime
    }
}
