package io.drover.process;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/**
 * Deadlines are handed to the watcher thread without a shared lock (issue 18: the timer thread's SIGKILL burst adds
 * one per kill and must not wait for the watcher thread). What is handed over while the watcher thread is busy in a
 * callback still runs, on that thread, in due order; a quiet deadline is seen at the watcher's next wake-up.
 */
class ExitWatcherDeadlineTest {
    private static final long WAIT_SECONDS = 10;

    @Test
    void deadlinesHandedOverWhileTheWatcherIsBusyRunInDueOrderOnItsThread() throws Exception {
        try (ExitWatcher watcher = new ExitWatcher(Native.get(), "drover-deadline-test")) {
            CountDownLatch inFirst = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> ran = new CopyOnWriteArrayList<>();
            CompletableFuture<Void> done = new CompletableFuture<>();
            long now = System.nanoTime();
            watcher.schedule(now, () -> {
                inFirst.countDown();
                await(release);
                ran.add("first");
            });
            assertThat(inFirst.await(WAIT_SECONDS, TimeUnit.SECONDS)).as("the first deadline runs").isTrue();
            // the watcher thread is inside a deadline action: both hand-overs return at once, nothing is run yet
            watcher.scheduleQuietly(now + 2, () -> {
                ran.add("later, quiet, added first");
                assertThat(watcher.onWatcherThread()).isTrue();
                done.complete(null);
            });
            watcher.schedule(now + 1, () -> ran.add("earlier, added second"));
            assertThat(ran).isEmpty();
            release.countDown();
            done.get(WAIT_SECONDS, TimeUnit.SECONDS);
            assertThat(ran).containsExactly("first", "earlier, added second", "later, quiet, added first");
        }
    }

    @Test
    void aQuietDeadlineIsSeenWithoutAWakeUpAndAnActionMayScheduleAnother() throws Exception {
        try (ExitWatcher watcher = new ExitWatcher(Native.get(), "drover-deadline-test")) {
            CompletableFuture<Boolean> second = new CompletableFuture<>();
            // the watcher is idle in epoll_wait (at most IDLE_WAIT_MILLIS): it takes the deadline at its next wake-up
            watcher.scheduleQuietly(System.nanoTime(), () -> watcher.scheduleQuietly(System.nanoTime(),
                    () -> second.complete(watcher.onWatcherThread())));
            assertThat(second.get(WAIT_SECONDS, TimeUnit.SECONDS)).as("ran on the watcher thread").isTrue();
        }
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(WAIT_SECONDS, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
