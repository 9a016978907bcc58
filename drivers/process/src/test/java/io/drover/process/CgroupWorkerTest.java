package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.List;
import java.util.Queue;
import java.util.concurrent.CompletableFuture;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * {@link CgroupWorker} stepped by hand (its thread is a queue this test runs): a handed-over cgroup stays until its
 * turn; a start of the same name ({@link CgroupWorker#removeNow}) removes a queued one at once, and the queued
 * removal then leaves the new run's directory alone; a SIGKILLed run's cpu weight is raised on the worker's thread.
 * Plain directories and files stand in for cgroupfs (rmdir and write are the same).
 */
class CgroupWorkerTest {
    @TempDir
    Path dir;

    private final Queue<Runnable> queued = new ArrayDeque<>();
    private final List<Long> delays = new ArrayList<>();
    private final CgroupWorker remover = new CgroupWorker((action, delay) -> {
        queued.add(action);
        delays.add(delay);
    });

    private TaskCgroup cgroup(String name) throws Exception {
        return new TaskCgroup(Files.createDirectories(dir.resolve("memory").resolve(name)),
                Files.createDirectories(dir.resolve("cpu").resolve(name)));
    }

    private void runQueued() {
        while (!queued.isEmpty()) {
            queued.poll().run();
        }
    }

    @Test
    void aHandedOverCgroupIsRemovedOnTheRemoversThreadNotTheCallers() throws Exception {
        TaskCgroup cg = cgroup("a1.main");
        remover.submit(cg);
        assertThat(cg.memory()).as("not on the caller's (the reaper's) thread").exists();
        assertThat(delays).containsExactly(CgroupWorker.DELAY_MILLIS);
        runQueued();
        assertThat(cg.memory()).doesNotExist();
        assertThat(cg.cpu()).doesNotExist();
    }

    @Test
    void aReRunRemovesTheQueuedCgroupAtOnceAndTheQueuedRemovalSparesTheNewOne() throws Exception {
        TaskCgroup old = cgroup("a1.main");
        remover.submit(old);
        remover.removeNow(old.memory());
        assertThat(old.memory()).as("removed on the starting thread").doesNotExist();
        TaskCgroup fresh = cgroup("a1.main"); // the re-run's mkdir
        runQueued();
        assertThat(fresh.memory()).as("the old run's queued removal does not take the new run's cgroup").exists();
        assertThat(fresh.cpu()).exists();
    }

    @Test
    void removeNowWithNothingQueuedLeavesTheDirectory() throws Exception {
        TaskCgroup cg = cgroup("a2.main");
        remover.removeNow(cg.memory());
        assertThat(cg.memory()).exists();
    }

    @Test
    void flushCompletesAfterTheRemovalsHandedOverBeforeIt() throws Exception {
        TaskCgroup cg = cgroup("a3.main");
        remover.submit(cg);
        CompletableFuture<Void> flushed = remover.flush();
        assertThat(flushed).isNotDone();
        queued.poll().run();
        assertThat(cg.memory()).doesNotExist();
        assertThat(flushed).isNotDone();
        queued.poll().run();
        assertThat(flushed).isDone();
    }

    @Test
    void flushRemovesWhatIsQueuedWithoutWaitingForTheDelay() throws Exception {
        TaskCgroup a = cgroup("a4.main");
        TaskCgroup b = cgroup("a5.main");
        remover.submit(a);
        remover.submit(b);
        CompletableFuture<Void> flushed = remover.flush();
        assertThat(delays).containsExactly(CgroupWorker.DELAY_MILLIS, CgroupWorker.DELAY_MILLIS, 0L);
        List<Runnable> actions = new ArrayList<>(queued);
        actions.get(2).run(); // the flush, due at once, runs before the delayed removals
        assertThat(flushed).isDone();
        assertThat(a.memory()).doesNotExist();
        assertThat(b.memory()).doesNotExist();
        actions.get(0).run(); // then the delayed ones find nothing left to do
        actions.get(1).run();
    }

    @Test
    void aSigkilledRunsCpuWeightIsRaisedOnTheWorkersThread() throws Exception {
        TaskCgroup cg = cgroup("a6.main");
        Path shares = Files.writeString(cg.cpu().resolve("cpu.shares"), "100");
        remover.raiseForKill(cg);
        assertThat(Files.readString(shares)).as("not on the killing thread").isEqualTo("100");
        assertThat(delays).containsExactly(0L);
        runQueued();
        assertThat(Files.readString(shares)).isEqualTo(Long.toString(TaskCgroup.KILLED_CPU_SHARES));
    }

    @Test
    void aRaiseAfterTheRemovalDoesNothing() throws Exception {
        TaskCgroup cg = cgroup("a7.main");
        remover.raiseForKill(cg);
        remover.submit(cg);
        remover.removeNow(cg.memory());
        runQueued();
        assertThat(cg.cpu()).doesNotExist();
    }

    @Test
    void aRaiseStillQueuedWhenAReRunStartsSparesTheReRunsFreshCgroup() throws Exception {
        TaskCgroup old = cgroup("a9.main");
        remover.raiseForKill(old); // the SIGKILL; the worker's thread has not run yet
        remover.submit(old); // the old run's exit
        remover.removeNow(old.memory()); // the re-run's start, before the worker's thread ran the raise
        TaskCgroup fresh = cgroup("a9.main"); // the re-run's mkdir, at the same paths
        Path shares = Files.writeString(fresh.cpu().resolve("cpu.shares"), "100"); // the re-run's own weight
        runQueued();
        assertThat(Files.readString(shares)).as("the old run's raise is not the new run's weight").isEqualTo("100");
        assertThat(fresh.memory()).as("nor is its removal").exists();
    }

    @Test
    void noCpuDirectoryNothingToRaise() throws Exception {
        remover.raiseForKill(new TaskCgroup(Files.createDirectories(dir.resolve("memory").resolve("a8.main")), null));
        assertThat(queued).isEmpty();
    }

    private static boolean threadNamed(String name) {
        return Thread.getAllStackTraces().keySet().stream().anyMatch(t -> t.getName().equals(name) && t.isAlive());
    }

    @Test
    void theRealThreadRemovesAfterTheDelayAndEndsWhenIdle() throws Exception {
        String name = "drover-cgroups-test-" + System.nanoTime();
        CgroupWorker real = new CgroupWorker(CgroupWorker.threaded(name, 100));
        TaskCgroup cg = cgroup("a9.main");
        real.submit(cg);
        assertThat(threadNamed(name)).as("started by the hand-over").isTrue();
        Await.until("removed after the delay", java.time.Duration.ofSeconds(10), () -> !Files.exists(cg.memory()));
        Await.until("the idle thread ended", java.time.Duration.ofSeconds(10), () -> !threadNamed(name));
        TaskCgroup again = cgroup("a10.main");
        real.submit(again);
        real.flush().get(10, java.util.concurrent.TimeUnit.SECONDS);
        assertThat(again.memory()).as("a new thread for the next hand-over").doesNotExist();
    }
}
