package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.time.ManualExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

/**
 * The settled action of a {@link SerialExecutor} (where an allocation persists its state): once per dry queue,
 * after every action queued before it, also after an action that threw, what it submits runs in the same turn,
 * and it never runs beside an action of its executor.
 */
class SerialExecutorSettledTest {

    @Test
    void runsOnceAfterTheActionsQueuedTogetherNotOncePerAction() {
        ManualExecutor pool = new ManualExecutor();
        List<String> seen = new ArrayList<>();
        SerialExecutor serial = new SerialExecutor(pool, "a", () -> seen.add("settled"));
        serial.execute(() -> seen.add("1"));
        serial.execute(() -> seen.add("2"));
        serial.execute(() -> seen.add("3"));
        pool.drain();
        assertThat(seen).containsExactly("1", "2", "3", "settled");

        serial.execute(() -> seen.add("4"));
        pool.drain();
        assertThat(seen).containsExactly("1", "2", "3", "settled", "4", "settled");
    }

    @Test
    void runsAfterAnActionThatThrewAndTakesWhatItSubmitsInTheSameTurn() {
        ManualExecutor pool = new ManualExecutor();
        List<String> seen = new ArrayList<>();
        AtomicReference<SerialExecutor> self = new AtomicReference<>();
        AtomicInteger settles = new AtomicInteger();
        SerialExecutor serial = new SerialExecutor(pool, "a", () -> {
            seen.add("settled");
            if (settles.incrementAndGet() == 1) {
                self.get().execute(() -> seen.add("posted by settled")); // a durable state published at once
            }
        });
        self.set(serial);
        serial.execute(() -> {
            seen.add("throws");
            throw new IllegalStateException("an engine bug");
        });
        assertThat(pool.drain()).isEqualTo(1); // one turn of the pool, whatever ran in it
        assertThat(seen).containsExactly("throws", "settled", "posted by settled", "settled");
    }

    @Test
    void aBusyExecutorSettlesBeforeItYieldsThePoolThread() {
        ManualExecutor pool = new ManualExecutor();
        AtomicInteger ran = new AtomicInteger();
        List<Integer> settledAfter = new ArrayList<>();
        SerialExecutor serial = new SerialExecutor(pool, "a", () -> settledAfter.add(ran.get()));
        for (int i = 0; i < 100; i++) {
            serial.execute(ran::incrementAndGet);
        }
        pool.drain();
        assertThat(ran.get()).isEqualTo(100);
        assertThat(settledAfter).containsExactly(64, 100); // the batch bound, then the dry queue
    }

    @Test
    void neverRunsBesideAnActionOfItsExecutor() throws Exception {
        ExecutorService pool = Executors.newFixedThreadPool(4);
        try {
            AtomicBoolean busy = new AtomicBoolean();
            AtomicInteger overlaps = new AtomicInteger();
            AtomicInteger settles = new AtomicInteger();
            Runnable exclusive = () -> {
                if (!busy.compareAndSet(false, true)) {
                    overlaps.incrementAndGet();
                }
                Thread.onSpinWait();
                busy.set(false);
            };
            SerialExecutor serial = new SerialExecutor(pool, "a", () -> {
                exclusive.run();
                settles.incrementAndGet();
            });
            int submitters = 4;
            int each = 20_000;
            CountDownLatch done = new CountDownLatch(submitters * each);
            ExecutorService callers = Executors.newFixedThreadPool(submitters);
            try {
                for (int t = 0; t < submitters; t++) {
                    callers.execute(() -> {
                        for (int i = 0; i < each; i++) {
                            serial.execute(() -> {
                                exclusive.run();
                                done.countDown();
                            });
                        }
                    });
                }
                assertThat(done.await(60, TimeUnit.SECONDS)).isTrue();
            } finally {
                callers.shutdownNow();
            }
            CountDownLatch last = new CountDownLatch(1);
            serial.execute(last::countDown);
            assertThat(last.await(10, TimeUnit.SECONDS)).isTrue();
            assertThat(overlaps.get()).isZero();
            assertThat(settles.get()).isPositive();
        } finally {
            pool.shutdownNow();
        }
    }
}
