package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ExitResult;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Assumptions;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.extension.RegisterExtension;
import org.junit.jupiter.api.io.TempDir;

/**
 * The exit-status shim and {@link ProcessSupervisor#attach}: the status file records codes and signals, the task
 * gets default dispositions, and a second supervisor (standing for a restarted agent) re-attaches to a live
 * task, reads the exit of an ended one, and refuses a recycled pid or a missing status file.
 */
@ExtendWith(ProcessLeakCheck.class)
class ShimTest {
    private static final Duration WAIT = Duration.ofSeconds(10);
    @RegisterExtension
    static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("first", "second");

    @TempDir
    Path dir;

    private SupervisedProcess sh(String script) throws SpawnException {
        return SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", script), ProcessLeakCheck.env(), dir,
                dir.resolve("out"), dir.resolve("err"), null, status()));
    }

    private Path status() {
        return dir.resolve("status");
    }

    /**
     * The status file says {@code expected} (e.g. {@code "exit 7\n"}) and, after it, when the shim reaped the task:
     * {@code ended T}, T in unix nanoseconds, at most a minute ago and not in the future.
     */
    private void assertStatus(String expected) throws Exception {
        String text = Files.readString(status());
        // then, when the shim killed what the task left, "killed P P ..."
        java.util.regex.Matcher m = java.util.regex.Pattern.compile("(.*) ended (\\d+)\n(killed [0-9 +]+\n)?")
                .matcher(text);
        assertThat(m.matches()).as(text).isTrue();
        assertThat(m.group(1) + "\n").isEqualTo(expected);
        long now = wallNanos();
        assertThat(Long.parseLong(m.group(2))).isBetween(now - 60_000_000_000L, now);
    }

    private static long wallNanos() {
        java.time.Instant now = java.time.Instant.now();
        return now.getEpochSecond() * 1_000_000_000L + now.getNano();
    }

    private static ExitResult exit(SupervisedProcess p) throws Exception {
        return p.onExit().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);
    }

    @Test
    void recordsExitCodesAndSignalsInTheStatusFile() throws Exception {
        assertThat(exit(sh("exit 7"))).isEqualTo(ExitResult.code(7));
        assertStatus("exit 7\n");
        assertThat(exit(sh("kill -USR1 $$"))).isEqualTo(ExitResult.signalled(10));
        assertStatus("signal 10\n");
        assertThat(exit(sh("exit 137"))).isEqualTo(ExitResult.code(137)); // a code, not a signal
        assertStatus("exit 137\n");
        assertThat(Files.exists(dir.resolve("status.tmp"))).isFalse();
    }

    @Test
    void withAUserTheTaskRunsAsThatUserAndTheShimStaysRoot() throws Exception {
        Assumptions.assumeTrue(TaskUser.effectiveUid().orElse(-1) == 0, "dropping to another user needs root");
        TaskUser nobody = TaskUser.lookup("nobody").orElseThrow();
        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("sh", List.of("-c", "id -u; id -g; id -G;"
                + " grep '^Uid:' /proc/$PPID/status | cut -f2; exit 4"), ProcessLeakCheck.env(), dir,
                dir.resolve("out"), dir.resolve("err"), null, status(), nobody));

        assertThat(exit(p)).isEqualTo(ExitResult.code(4));

        assertThat(Files.readString(dir.resolve("out"))).isEqualTo(nobody.uid() + "\n" + nobody.gid() + "\n"
                + nobody.gid() + "\n0\n"); // the last line: the shim's real uid
        assertStatus("exit 4\n");
        assertThat(Files.getAttribute(status(), "unix:uid")).isEqualTo(0);
    }

    @Test
    void theShimRunningAsRootIgnoresTheTasksLdPreloadAndOnlyTheDroppedTaskLoadsIt() throws Exception {
        Assumptions.assumeTrue(TaskUser.effectiveUid().orElse(-1) == 0, "dropping to another user needs root");
        TaskUser nobody = TaskUser.lookup("nobody").orElseThrow();
        // the test's private dir opened so that the task, as nobody, can load the library and leave its marker
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path markers = Files.createDirectory(dir.resolve("markers"));
        Files.setPosixFilePermissions(markers, PosixFilePermissions.fromString("rwxrwxrwx"));
        Path library = PreloadMarker.compile(Files.createDirectory(dir.resolve("lib")));
        Map<String, String> env = ProcessLeakCheck.env();
        env.put("LD_PRELOAD", library.toString());
        env.put(PreloadMarker.DIR_VAR, markers.toString());

        SupervisedProcess p = SUPERVISORS.first().spawn(new SpawnSpec("/bin/true", List.of(), env, dir, dir.resolve("out"),
                dir.resolve("err"), null, status(), nobody));

        assertThat(exit(p)).isEqualTo(ExitResult.code(0));
        assertThat(PreloadMarker.markers(markers)).containsExactly("marker-uid-" + nobody.uid());
    }

    @Test
    void whatANormallyEndingTaskLeavesBehindIsKilledEvenASetsidDaemonWhoseParentIsGone() throws Exception {
        // the daemon's parent (a subshell) exits before the task: without the subreaper shim the daemon would be
        // re-parented to init, in no relation to the task any more
        Path d = dir.resolve("daemon.pid");
        Path b = dir.resolve("background.pid");
        SupervisedProcess p = sh("(setsid sleep 300 & echo $! > " + d + ") ; sleep 300 & echo $! > " + b + "; "
                + "dp=$(cat " + d + "); "
                + "while [ \"$(cut -d' ' -f6 /proc/$dp/stat)\" != \"$dp\" ]; do :; done; exit 3");

        assertThat(exit(p)).isEqualTo(ExitResult.code(3));

        int daemon = Integer.parseInt(Files.readString(d).strip());
        int background = Integer.parseInt(Files.readString(b).strip());
        // the shim killed and reaped both before it ended, and its exit is what completed p
        assertThat(ProcTable.read(daemon)).as("the setsid daemon").isEmpty();
        assertThat(ProcTable.read(background)).as("the background child").isEmpty();
        assertStatus("exit 3\n");
        assertThat(ExitStatusFile.read(status()).orElseThrow().killed()).contains(daemon, background);
    }

    @Test
    void aSigkillSparesTheShimWhoseExitVerifiesTheTreeWithoutASearch() throws Exception {
        // a TERM-ignoring task with a background child and a setsid'ed grandchild (another session: no group kill
        // reaches it; the shim, its subreaper, kills it once its parent died)
        Path g = dir.resolve("gc.pid");
        SupervisedProcess p = sh("trap '' TERM; sleep 1000 & setsid sh -c 'echo $$ > " + g + ".tmp; mv " + g
                + ".tmp " + g + "; exec sleep 1000' & echo ready > ready; while :; do sleep 0.05; done");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")) && Files.exists(g));
        int grandchild = Integer.parseInt(Files.readString(g).strip());
        Await.until("grandchild in its own session", WAIT, () -> ProcTable.read(grandchild)
                .map(q -> q.sid() == grandchild && q.comm().equals("sleep")).orElse(false));
        int[] children = ShimKill.children(p.pid());
        assertThat(children).hasSize(1);
        ProcTable.Proc task = ProcTable.read(children[0]).orElseThrow();
        assertThat(task.pgid()).as("the task leads a group of its own").isEqualTo(task.pid());
        assertThat(task.sid()).as("in the shim's session").isEqualTo(p.pid());
        assertThat(ProcTable.read(p.pid()).orElseThrow().pgid()).isEqualTo(p.pid());
        long searched = SUPERVISORS.first().treeKiller().searched();

        p.signal(15); // to the shim, which forwards it to the task's group: ignored there
        KillReport report = p.killTree().toCompletableFuture().get(WAIT.toMillis(), TimeUnit.MILLISECONDS);

        assertThat(exit(p)).isEqualTo(ExitResult.signalled(9));
        assertStatus("signal 9\n"); // the shim outlived the kill and recorded it
        assertThat(report.clean()).isTrue();
        assertThat(report.killed()).extracting(ProcTable.Proc::pid).contains(p.pid(), task.pid(), grandchild);
        assertThat(ProcTable.read(grandchild)).as("the setsid'ed grandchild").isEmpty();
        assertThat(ProcTable.read(task.pid())).isEmpty();
        assertThat(SUPERVISORS.first().treeKiller().searched()).as("no /proc search").isEqualTo(searched);
    }

    @Test
    void theTaskStartsWithTheSameDispositionsAndMaskAsWithoutTheShim() throws Exception {
        List<String> args = List.of("-E", "^Sig(Ign|Blk)", "/proc/self/status");
        Map<String, String> env = ProcessLeakCheck.env();
        assertThat(exit(SUPERVISORS.first().spawn(new SpawnSpec("grep", args, env, dir, dir.resolve("plain"), dir.resolve("err")))))
                .isEqualTo(ExitResult.code(0));
        assertThat(exit(SUPERVISORS.first().spawn(new SpawnSpec("grep", args, env, dir, dir.resolve("out"), dir.resolve("err"),
                null, status())))).isEqualTo(ExitResult.code(0));
        String task = Files.readString(dir.resolve("out"));
        assertThat(task).isEqualTo(Files.readString(dir.resolve("plain"))).contains("SigBlk:\t0000000000000000");
        // glibc's posix_spawn leaves its two internal signals (32, 33) as the JVM has them; nothing else ignored
        assertThat(task).containsPattern("SigIgn:\t0000000[01][08]0000000");
    }

    @Test
    void theShimBlocksCatchableSignalsAndForwardsThemToTheTasksGroup() throws Exception {
        SupervisedProcess p = sh("echo ready > ready; exec sleep 1000");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        String shim = Files.readString(Path.of("/proc/" + p.pid() + "/status"));
        // every signal but KILL and STOP stays blocked in the shim for its whole life and is taken by
        // rt_sigtimedwait (which shows the waited set unblocked while it waits), none ignored, none caught: a
        // signal sent before the fork, or between the fork and any change of disposition, is never lost.
        // (glibc's posix_spawn leaves its two internal signals, 32 and 33, as the JVM has them.)
        assertThat(shim).containsPattern("SigIgn:\t0000000[01][08]0000000").contains("SigCgt:\t0000000000000000");
        assertThat(shim).contains("State:\tS");
        // SIGTERM to the shim alone (not to a group): forwarded to the task's group
        assertThat(ProcessHandle.of(p.pid()).orElseThrow().destroy()).isTrue();
        assertThat(exit(p)).isEqualTo(ExitResult.signalled(15));
        assertStatus("signal 15\n");
    }

    @Test
    void sigstopStopsTheTaskAndNotTheShim() throws Exception {
        SupervisedProcess p = sh("echo ready > ready; exec sleep 1000");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        int task = ShimKill.children(p.pid())[0];
        p.signal(19);
        Await.until("task stopped", WAIT, () -> ProcTable.read(task).map(q -> q.state() == 'T').orElse(false));
        assertThat(ProcTable.read(p.pid()).orElseThrow().state()).as("the shim").isNotEqualTo('T');
        p.signal(18); // SIGCONT, forwarded by the shim
        Await.until("task continued", WAIT, () -> ProcTable.read(task).map(q -> q.state() != 'T').orElse(false));
        p.signal(9);
        assertThat(exit(p)).isEqualTo(ExitResult.signalled(9));
    }

    @Test
    void groupSignalsReachTheTaskNotTheShim() throws Exception {
        SupervisedProcess p = sh("echo ready > ready; exec sleep 1000");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        p.signal(15);
        assertThat(exit(p)).isEqualTo(ExitResult.signalled(15));
        assertStatus("signal 15\n");
    }

    @Test
    void anotherSupervisorReattachesSignalsAndReadsTheTrueExit() throws Exception {
        SupervisedProcess started = sh("echo ready > ready; sleep 1000 & wait $!; exit 5");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        SupervisedProcess attached = SUPERVISORS.second().attach(started.pid(), started.startTime(), status());
        assertThat(attached.exitNow()).isEmpty();
        // the sleep is in the group: SIGTERM ends it, and the script (waiting) exits 5 after the trap-less TERM
        attached.signal(15);
        ExitResult e = exit(attached);
        assertThat(e).isEqualTo(exit(started));
        assertThat(e.exitCode()).isIn(5, 143); // sh itself takes TERM too: 143; which one is the kernel's choice
        assertStatus(e.signal() != 0 ? "signal 15\n" : "exit 5\n");
    }

    @Test
    void sigkillAfterReattachKillsTheTreeAndTheShimRecordsIt() throws Exception {
        SupervisedProcess started = sh("trap '' TERM; echo ready > ready; sleep 1000 & wait $!");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        SupervisedProcess attached = SUPERVISORS.second().attach(started.pid(), started.startTime(), status());
        long searched = SUPERVISORS.second().treeKiller().searched();
        attached.signal(9);
        ExitResult e = exit(attached);
        assertThat(e.exitCode()).isEqualTo(137);
        assertThat(e.signal()).isEqualTo(9);
        // the kill spared the shim (its task leads a group of its own), so the shim recorded the true end; a shim
        // of the older layout dies with its task and the exit says "killed by the agent with SIGKILL"
        assertStatus("signal 9\n");
        assertThat(exit(started).signal()).isEqualTo(9); // the parent reaps the shim
        assertThat(attached.lastKill().orElseThrow().toCompletableFuture().get().clean()).isTrue();
        assertThat(SUPERVISORS.second().treeKiller().searched()).as("no /proc search").isEqualTo(searched);
    }

    @Test
    void aTaskThatEndedBeforeTheAttachGivesItsRecordedExit() throws Exception {
        long before = wallNanos();
        SupervisedProcess started = sh("exit 7");
        assertThat(exit(started)).isEqualTo(ExitResult.code(7));
        long seen = wallNanos();
        assertThat(started.endedAtNanos()).isEqualTo(-1); // seen as it happened
        SupervisedProcess attached = SUPERVISORS.second().attach(started.pid(), started.startTime(), status());
        assertThat(attached.exitNow()).contains(ExitResult.code(7));
        // issue 12, finding 17: when it ended, as the shim recorded it, not when the second supervisor looked
        assertThat(attached.endedAtNanos()).isBetween(before, seen);
    }

    @Test
    void aStatusFileOfAnOlderShimHasNoEndTime() throws Exception {
        SupervisedProcess started = sh("exit 4");
        exit(started);
        Files.writeString(status(), "exit 4\n");
        SupervisedProcess attached = SUPERVISORS.second().attach(started.pid(), started.startTime(), status());
        assertThat(attached.exitNow()).contains(ExitResult.code(4));
        assertThat(attached.endedAtNanos()).isEqualTo(-1); // the engine then takes the time it found out
    }

    @Test
    void aLinkPlantedAtTheStatusFileIsNeitherWrittenThroughNorRead() throws Exception {
        Path secret = Files.writeString(dir.resolve("secret"), "root only\n");
        Files.createSymbolicLink(status(), secret);
        SupervisedProcess started = sh("exit 2");
        assertThat(exit(started)).isEqualTo(ExitResult.code(2));
        assertThat(Files.readString(secret)).isEqualTo("root only\n");
        assertThat(Files.isSymbolicLink(status())).isFalse();
        assertStatus("exit 2\n");
        // and a link planted after the end is not read: its target's text never reaches a message
        Files.delete(status());
        Files.createSymbolicLink(status(), secret);
        assertThatThrownBy(() -> SUPERVISORS.second().attach(started.pid(), started.startTime(), status()))
                .isInstanceOf(ProcessGoneException.class).hasMessageContaining("unreadable exit status")
                .hasMessageNotContaining("root only");
    }

    @Test
    void aRecycledPidIsNotAttachedAndWithoutAStatusFileTheEndIsUnknown() throws Exception {
        SupervisedProcess live = sh("echo ready > ready; exec sleep 1000");
        Await.until("ready", WAIT, () -> Files.exists(dir.resolve("ready")));
        assertThatThrownBy(() -> SUPERVISORS.second().attach(live.pid(), live.startTime() + 1, status()))
                .isInstanceOf(ProcessGoneException.class)
                .hasMessage("pid " + live.pid() + " now belongs to another process (start time " + live.startTime()
                        + ", recorded " + (live.startTime() + 1) + ") and recorded no exit status (" + status()
                        + " is missing)");
        assertThat(live.exitNow()).isEmpty(); // not signalled
        live.signal(9);
        assertThat(exit(live).signal()).isEqualTo(9);
    }

    @Test
    void aGoneProcessWithoutAStatusFileCannotBeKnown() throws Exception {
        SupervisedProcess started = sh("exit 3");
        exit(started);
        Files.delete(status());
        assertThatThrownBy(() -> SUPERVISORS.second().attach(started.pid(), started.startTime(), status()))
                .isInstanceOf(ProcessGoneException.class)
                .hasMessageEndingWith("and recorded no exit status (" + status() + " is missing)");
        Files.writeString(status(), "garbage");
        assertThatThrownBy(() -> SUPERVISORS.second().attach(started.pid(), started.startTime(), status()))
                .isInstanceOf(ProcessGoneException.class).hasMessageContaining("unreadable exit status");
    }

    @Test
    void parsesStatusLines() throws Exception {
        Path f = Path.of("s");
        assertThat(ExitStatusFile.parse("exit 0", f).result()).isEqualTo(ExitResult.code(0));
        assertThat(ExitStatusFile.parse("signal 9", f).result()).isEqualTo(ExitResult.signalled(9));
        assertThat(ExitStatusFile.parse("exec 2", f).execErrno()).isEqualTo(2);
        assertThat(ExitStatusFile.parse("exit 3 ended 1764633600123456789", f))
                .isEqualTo(new ExitStatusFile.Status(ExitResult.code(3), 0, 1764633600123456789L));
        assertThat(ExitStatusFile.parse("exit 3", f).endedAtNanos()).isEqualTo(-1);
        assertThat(ExitStatusFile.killed("killed 12 13 +4")).containsExactly(12, 13);
        assertThat(ExitStatusFile.killed("killed 12 x")).isEmpty();
        assertThat(ExitStatusFile.killed("exit 1")).isEmpty();
        for (String bad : List.of("", "exit", "exit 256", "signal 0", "exit x", "quit 1", "exit 1 2",
                "exit 1 ended", "exit 1 ended x", "exit 1 ended -5", "exit 1 at 5")) {
            assertThatThrownBy(() -> ExitStatusFile.parse(bad, f)).hasMessageContaining("unreadable exit status");
        }
    }
}
