package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Random;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The template watch on the virtual clock ({@link TemplateHookHarness}): the splay's random delay (a seeded random
 * injected), {@code once}, {@code uid}/{@code gid}, and {@code change_mode = "script"}'s events, each to the
 * nanosecond of virtual time, with real files and the real hook pool, and no sleep.
 */
class TemplateWatchClockTest {
    @TempDir
    Path dataDir;

    private static String job(String template) {
        return """
                job "tw" {
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      config { command = "true" }
                      template {
                        source      = "local/in.tpl"
                        destination = "local/out.txt"
                        %s
                      }
                    }
                  }
                }
                """.formatted(template);
    }

    private TemplateHookHarness harness(String name, String template, Random random) throws Exception {
        TemplateHookHarness h = new TemplateHookHarness(Files.createDirectories(dataDir.resolve(name)), job(template),
                random);
        Files.writeString(h.taskDir.resolve("local/in.tpl"), "v1");
        h.render();
        return h;
    }

    private static String read(Path p) throws Exception {
        return Files.readString(p);
    }

    /**
     * A change waits a random delay in [0, splay) before its change_mode: the delay is exactly the injected random's
     * next draw, so the signal comes at the poll that saw the change plus that draw — never at the poll itself, as
     * it would if splay were ignored — and different seeds give different delays spread over the splay.
     */
    @Test
    void aChangeWaitsARandomDelayInZeroToSplayDrawnFromTheInjectedRandom() throws Exception {
        long splay = Duration.ofSeconds(10).toNanos();
        List<Long> delays = new ArrayList<>();
        for (long seed = 1; seed <= 6; seed++) {
            long expected = new Random(seed).nextLong(splay);
            TemplateHookHarness h = harness("s" + seed, """
                    change_mode   = "signal"
                    change_signal = "SIGHUP"
                    splay         = "10s"
                    """, new Random(seed));
            Instant poll = TemplateHookHarness.T0.plus(TemplateWatch.POLL);
            assertThat(h.timers.nextDue()).as("the first poll").contains(poll);

            RawExecJobs.change(h.taskDir.resolve("local/in.tpl"), "v2");
            h.nextTimer(); // the poll: re-rendered, then the splay's timer
            assertThat(read(h.taskDir.resolve("local/out.txt"))).isEqualTo("v2");
            assertThat(h.calls).as("nothing before the splay's delay").isEmpty();
            assertThat(h.timers.nextDue()).as("seed " + seed).contains(poll.plusNanos(expected));

            h.nextTimer(); // the splay's end: the signal, then the next poll
            assertThat(h.calls).containsExactly(
                    new TemplateHookHarness.Call(poll.plusNanos(expected), "signal", "SIGHUP"));
            assertThat(h.timers.nextDue()).as("the next poll").contains(poll.plusNanos(expected).plus(TemplateWatch.POLL));
            h.kill();
            delays.add(expected);
        }
        assertThat(delays).allSatisfy(d -> assertThat(d).isBetween(0L, splay - 1)).doesNotHaveDuplicates();
        assertThat(delays.stream().mapToLong(Long::longValue).max().orElseThrow())
                .as("the draws are spread over the splay, not squeezed near 0").isGreaterThan(splay / 2);
    }

    @Test
    void withoutSplayTheChangeModeAppliesAtThePollThatSawTheChange() throws Exception {
        TemplateHookHarness h = harness("nosplay", """
                change_mode   = "signal"
                change_signal = "SIGUSR1"
                splay         = "0s"
                """, new Random(1));
        RawExecJobs.change(h.taskDir.resolve("local/in.tpl"), "v2");
        h.nextTimer();
        h.nextTimer();
        assertThat(h.calls).containsExactly(new TemplateHookHarness.Call(
                TemplateHookHarness.T0.plus(TemplateWatch.POLL), "signal", "SIGUSR1"));
    }

    /** once: rendered before the first run, and no poll is ever armed, so a changed source changes nothing. */
    @Test
    void onceRendersAndNeverWatchesAgain() throws Exception {
        TemplateHookHarness watched = harness("watched", "change_mode = \"noop\"", new Random(1));
        assertThat(watched.timers.nextDue()).as("without once: polled").isPresent();
        watched.kill();

        TemplateHookHarness h = harness("once", "change_mode = \"restart\"\n once = true", new Random(1));
        assertThat(read(h.taskDir.resolve("local/out.txt"))).isEqualTo("v1");
        assertThat(h.timers.nextDue()).as("with once: no poll, no timer at all").isEmpty();
        RawExecJobs.change(h.taskDir.resolve("local/in.tpl"), "v2");
        h.settle(() -> true, "nothing");
        assertThat(h.timers.nextDue()).isEmpty();
        assertThat(read(h.taskDir.resolve("local/out.txt"))).isEqualTo("v1");
        assertThat(h.calls).isEmpty();
    }

    /**
     * uid/gid: the rendered file is the given user's and group's (chown by the agent, as root), at the first render
     * and at every re-render; a link planted in place of the destination is replaced, and what it pointed to keeps
     * its owner.
     */
    @Test
    void uidAndGidOwnTheRenderedFileAtEveryRenderWithoutFollowingALink() throws Exception {
        Assumptions.assumeTrue(io.drover.process.TaskUser.effectiveUid().orElse(-1) == 0, "needs root to chown");
        TemplateHookHarness h = harness("owner", """
                change_mode = "noop"
                perms       = "0640"
                uid         = 65534
                gid         = 65533
                """, new Random(1));
        Path out = h.taskDir.resolve("local/out.txt");
        assertThat(Files.getAttribute(out, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65534);
        assertThat(Files.getAttribute(out, "unix:gid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65533);
        assertThat(Files.getAttribute(out, "unix:mode", LinkOption.NOFOLLOW_LINKS)).isEqualTo(0100640);

        Path victim = Files.writeString(dataDir.resolve("victim"), "root's");
        Files.delete(out);
        Files.createSymbolicLink(out, victim);
        RawExecJobs.change(h.taskDir.resolve("local/in.tpl"), "v2");
        h.nextTimer();
        assertThat(Files.isSymbolicLink(out)).isFalse();
        assertThat(read(out)).isEqualTo("v2");
        assertThat(Files.getAttribute(out, "unix:uid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65534);
        assertThat(Files.getAttribute(out, "unix:gid", LinkOption.NOFOLLOW_LINKS)).isEqualTo(65533);
        assertThat(read(victim)).isEqualTo("root's");
        assertThat(Files.getAttribute(victim, "unix:uid")).isEqualTo(0);
        assertThat(Files.getAttribute(victim, "unix:mode")).isNotEqualTo(0100640);
    }

    private static final String SCRIPT = """
            change_mode = "script"
            splay       = "0s"
            change_script {
              command       = "/usr/local/bin/reload"
              args          = ["-a", "b"]
              timeout       = "3s"
              fail_on_error = %s
            }
            """;

    private static List<String> events(TemplateHookHarness h, TaskEventType type) {
        return h.events.stream().filter(e -> e.type() == type).map(TaskEvent::displayMessage).toList();
    }

    private static void change(TemplateHookHarness h, String text) throws Exception {
        RawExecJobs.change(h.taskDir.resolve("local/in.tpl"), text);
        h.nextTimer(); // the poll
        h.nextTimer(); // the change_mode (no splay), then the script's end re-arms the poll
    }

    /** change_mode script: each outcome of the change_script is Nomad's event; the poll goes on after it ended. */
    @Test
    void aChangeScriptRunsThroughTheTasksExecWithNomadsEvents() throws Exception {
        TemplateHookHarness h = harness("script", SCRIPT.formatted("false"), new Random(1));
        CompletableFuture<ExitResult>[] next = new CompletableFuture[1];
        h.exec = (cmd, timeout) -> next[0];

        next[0] = CompletableFuture.completedFuture(ExitResult.code(0));
        change(h, "v2");
        assertThat(h.calls).extracting(TemplateHookHarness.Call::detail)
                .containsExactly("/usr/local/bin/reload -a b (PT3S)");
        assertThat(events(h, TaskEventType.HOOK_MESSAGE)).containsExactly(
                "Template successfully ran script /usr/local/bin/reload with arguments: [-a b]. Exit code: 0");

        next[0] = CompletableFuture.completedFuture(ExitResult.code(3));
        change(h, "v3");
        assertThat(events(h, TaskEventType.HOOK_FAILED)).containsExactly("Template ran script /usr/local/bin/reload "
                + "with arguments [-a b] on change but it exited with code: 3");
        assertThat(h.calls).extracting(TemplateHookHarness.Call::what).doesNotContain("fail");
        assertThat(h.timers.nextDue()).as("fail_on_error = false: still watched").isPresent();
    }

    /** A driver without exec: Nomad's "ExecTask is not supported by this driver"; fail_on_error kills the task. */
    @Test
    void aDriverWithoutExecFailsTheScriptAndFailOnErrorKillsTheTask() throws Exception {
        TemplateHookHarness h = harness("noexec", SCRIPT.formatted("true"), new Random(1));
        RawExecJobs.change(h.taskDir.resolve("local/in.tpl"), "v2");
        h.nextTimer();
        h.timers.runNextTimer();
        h.settle(() -> h.calls.stream().anyMatch(c -> c.what().equals("fail")), "the task to be failed");
        assertThat(events(h, TaskEventType.HOOK_FAILED)).containsExactly("Template failed to run script "
                + "/usr/local/bin/reload with arguments [-a b] on change: ExecTask is not supported by this driver. "
                + "Exit code: 0");
        assertThat(h.calls).extracting(TemplateHookHarness.Call::what).containsExactly("exec", "fail");
        assertThat(h.calls.get(1).detail()).isEqualTo("Template script failed, task is being killed");
        assertThat(h.timers.nextDue()).as("no more polls: the task is on its way out").isEmpty();
    }
}
