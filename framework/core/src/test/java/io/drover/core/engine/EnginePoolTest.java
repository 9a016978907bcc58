package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.Collections;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;

/** The engine pool's urgent lane: timer work goes ahead of queued ordinary work; each lane keeps its order. */
class EnginePoolTest {
    @Test
    void urgentWorkRunsBeforeQueuedOrdinaryWorkAndEachLaneKeepsItsOrder() throws Exception {
        EnginePool pool = new EnginePool(1, r -> new Thread(r, "test-engine"));
        try {
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            pool.execute(() -> {
                busy.countDown();
                await(release);
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            CountDownLatch done = new CountDownLatch(5);
            pool.execute(() -> ran(ran, "a", done));
            pool.execute(() -> ran(ran, "b", done));
            pool.executeUrgent(() -> ran(ran, "timer1", done));
            pool.execute(() -> ran(ran, "c", done));
            pool.executeUrgent(() -> ran(ran, "timer2", done));
            release.countDown();
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).containsExactly("timer1", "timer2", "a", "b", "c");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void anIdleAllocationsUrgentTurnGoesAheadButItsOwnActionsStayInOrder() throws Exception {
        EnginePool pool = new EnginePool(1, r -> new Thread(r, "test-engine"));
        try {
            CountDownLatch busy = new CountDownLatch(1);
            CountDownLatch release = new CountDownLatch(1);
            List<String> ran = Collections.synchronizedList(new ArrayList<>());
            pool.execute(() -> {
                busy.countDown();
                await(release);
            });
            assertThat(busy.await(10, TimeUnit.SECONDS)).isTrue();
            SerialExecutor other = new SerialExecutor(pool, "other");
            SerialExecutor timed = new SerialExecutor(pool, "timed");
            CountDownLatch done = new CountDownLatch(4);
            other.execute(() -> ran(ran, "other-1", done));
            timed.executeUrgent(() -> ran(ran, "timed-expiry", done));
            timed.execute(() -> ran(ran, "timed-after", done));
            other.execute(() -> ran(ran, "other-2", done));
            release.countDown();
            assertThat(done.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(ran).containsExactly("timed-expiry", "timed-after", "other-1", "other-2");
        } finally {
            pool.shutdownNow();
        }
    }

    private static void ran(List<String> ran, String what, CountDownLatch done) {
        ran.add(what);
        done.countDown();
    }

    private static void await(CountDownLatch latch) {
        try {
            latch.await(10, TimeUnit.SECONDS);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }
}
