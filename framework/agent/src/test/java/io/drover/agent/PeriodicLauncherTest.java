package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.Job;
import io.drover.core.spec.JobLaunch;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Periodic;
import io.drover.driver.tck.VirtualTimers;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.atomic.AtomicBoolean;
import org.junit.jupiter.api.Test;

/** The periodic schedule on the virtual clock: launch times, overlap, restarts, untracking. No sleeps. */
class PeriodicLauncherTest {
    private static final Instant T0 = Instant.parse("2026-12-02T03:07:30Z");
    private final VirtualTimers clock = new VirtualTimers(T0);
    private final List<String> launched = new ArrayList<>();
    private final AtomicBoolean childRunning = new AtomicBoolean();
    private final PeriodicLauncher launcher = new PeriodicLauncher(clock, Runnable::run, new PeriodicLauncher.Target() {
        @Override
        public void launch(Job parent, Instant at) {
            launched.add(Periodic.childId(parent.id(), at) + "@" + clock.now());
        }

        @Override
        public boolean childRunning(String parentId) {
            return childRunning.get();
        }
    });

    private static Job periodic(String id, boolean prohibitOverlap, String... specs) {
        return new Job(id, id, JobType.BATCH, List.of(), List.of(), "t.hcl", null, List.of(),
                new JobLaunch(new Periodic(List.of(specs), "UTC", prohibitOverlap, true), null, false));
    }

    private static long epoch(String t) {
        return Instant.parse(t).getEpochSecond();
    }

    @Test
    void launchesAtEachCronTimeWithNomadsChildIds() {
        launcher.track(periodic("report", false, "*/15 * * * *"), null, false);
        clock.advanceTo(Instant.parse("2026-12-02T03:45:00Z"));
        assertThat(launched).containsExactly(
                "report/periodic-" + epoch("2026-12-02T03:15:00Z") + "@2026-12-02T03:15:00Z",
                "report/periodic-" + epoch("2026-12-02T03:30:00Z") + "@2026-12-02T03:30:00Z",
                "report/periodic-" + epoch("2026-12-02T03:45:00Z") + "@2026-12-02T03:45:00Z");
        assertThat(clock.nextDue()).contains(Instant.parse("2026-12-02T04:00:00Z"));
    }

    @Test
    void severalCronsLaunchAtTheEarliestOfThem() {
        launcher.track(periodic("multi", false, "0 4 * * *", "20 3 * * *"), null, false);
        clock.advanceTo(Instant.parse("2026-12-02T04:00:00Z"));
        assertThat(launched).extracting(s -> s.substring(s.indexOf('@') + 1))
                .containsExactly("2026-12-02T03:20:00Z", "2026-12-02T04:00:00Z");
    }

    @Test
    void prohibitOverlapSkipsALaunchWhileAChildRunsAndKeepsTheSchedule() {
        launcher.track(periodic("once", true, "*/15 * * * *"), null, false);
        clock.advanceTo(Instant.parse("2026-12-02T03:15:00Z"));
        childRunning.set(true);
        clock.advanceTo(Instant.parse("2026-12-02T03:30:00Z"));
        childRunning.set(false);
        clock.advanceTo(Instant.parse("2026-12-02T03:45:00Z"));
        assertThat(launched).extracting(s -> s.substring(s.indexOf('@') + 1))
                .containsExactly("2026-12-02T03:15:00Z", "2026-12-02T03:45:00Z");
    }

    @Test
    void aRestartAfterMissedLaunchesLaunchesOnceNowThenFollowsTheSchedule() {
        // last launch 03:00; the agent was down until 03:07:30, past the 03:05 launch and the 03:06 one
        launcher.track(periodic("minutely", false, "* * * * *"), Instant.parse("2026-12-02T03:05:00Z"), true);
        clock.advanceTo(Instant.parse("2026-12-02T03:09:00Z"));
        assertThat(launched).containsExactly(
                "minutely/periodic-" + T0.getEpochSecond() + "@" + T0,
                "minutely/periodic-" + epoch("2026-12-02T03:08:00Z") + "@2026-12-02T03:08:00Z",
                "minutely/periodic-" + epoch("2026-12-02T03:09:00Z") + "@2026-12-02T03:09:00Z");
    }

    @Test
    void aRestartBeforeTheNextLaunchLaunchesNothingEarly() {
        launcher.track(periodic("hourly", false, "@hourly"), Instant.parse("2026-12-02T03:00:00Z"), true);
        assertThat(launched).isEmpty();
        clock.advanceTo(Instant.parse("2026-12-02T04:00:00Z"));
        assertThat(launched).hasSize(1).first().asString().endsWith("@2026-12-02T04:00:00Z");
    }

    @Test
    void aRestartWithAChildStillRunningAndOverlapProhibitedDoesNotLaunchTheMissedOne() {
        childRunning.set(true);
        launcher.track(periodic("busy", true, "* * * * *"), Instant.parse("2026-12-02T03:00:00Z"), true);
        assertThat(launched).isEmpty();
        childRunning.set(false);
        clock.advanceTo(Instant.parse("2026-12-02T03:08:00Z"));
        assertThat(launched).hasSize(1).first().asString().endsWith("@2026-12-02T03:08:00Z");
    }

    @Test
    void untrackedReRegisteredAndDisabledJobsLaunchNothingMore() {
        Job job = periodic("j", false, "* * * * *");
        launcher.track(job, null, false);
        launcher.untrack("j");
        clock.advance(Duration.ofMinutes(5));
        assertThat(launched).isEmpty();
        assertThat(clock.nextDue()).isEmpty();
        launcher.track(job, null, false);
        launcher.track(job, null, false); // a re-registration replaces the timer: one launch per time
        clock.advance(Duration.ofMinutes(1));
        assertThat(launched).hasSize(1);
        Job disabled = new Job("j", "j", JobType.BATCH, List.of(), List.of(), "t.hcl", null, List.of(),
                new JobLaunch(new Periodic(List.of("* * * * *"), "UTC", false, false), null, false));
        launcher.track(disabled, null, false);
        clock.advance(Duration.ofMinutes(5));
        assertThat(launched).hasSize(1);
        assertThat(launcher.tracks("j")).isFalse();
    }

    @Test
    void aTimeZoneMovesTheLaunchToItsWallClock() {
        Job job = new Job("tz", "tz", JobType.BATCH, List.of(), List.of(), "t.hcl", null, List.of(),
                new JobLaunch(new Periodic(List.of("0 9 * * *"), "America/New_York", false, true), null, false));
        launcher.track(job, null, false);
        assertThat(clock.nextDue()).contains(Instant.parse("2026-12-02T14:00:00Z"));
    }
}
