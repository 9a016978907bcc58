package io.drover.bench;

import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Job;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskState;
import io.drover.core.store.JournalStore;
import io.drover.driver.api.ExitResult;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.Semaphore;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicLong;

/**
 * Issue 4/6: durable task events per second through the journal store's group commit: 8 producer threads each
 * persist successive versions of their own 3-task allocations, one new event per version (a fresh allocation
 * every 60 events), at most 4,096 versions in flight per producer. Counts the versions acknowledged durable
 * (fsynced) before the deadline. Aim >= 20,000 events/s.
 */
final class StoreEventsBench implements Bench {
    private static final List<String> TASKS = List.of("init", "main", "cleanup");

    @Override
    public String name() {
        return "store";
    }

    @Override
    public List<Figure> run(BenchEnv env) throws Exception {
        int seconds = env.size(3, 10);
        int threads = 8;
        Job job = EngineHarness.job("events", """
                job "events" {
                  group "g" {
                    task "init" {
                      driver = "mock"
                      lifecycle { hook = "prestart" }
                    }
                    task "main" { driver = "mock" }
                    task "cleanup" {
                      driver = "mock"
                      lifecycle { hook = "poststop" }
                    }
                  }
                }
                """, 1);
        measure(env, job, 1, threads, "warmup");
        double perSecond = measure(env, job, seconds, threads, "run");
        return List.of(Figure.atLeast(name(), "durable events/s, group commit (" + threads + " writers, "
                + seconds + " s)", Math.round(perSecond), "events/s", "", 20_000));
    }

    private static double measure(BenchEnv env, Job job, int seconds, int threads, String dir) throws Exception {
        AtomicLong acked = new AtomicLong();
        java.util.concurrent.atomic.AtomicReference<Throwable> failure = new java.util.concurrent.atomic.AtomicReference<>();
        try (JournalStore store = JournalStore.open(env.freshDir("store-" + dir))) {
            long t0 = System.nanoTime();
            long deadline = t0 + TimeUnit.SECONDS.toNanos(seconds);
            CountDownLatch done = new CountDownLatch(threads);
            for (int t = 0; t < threads; t++) {
                int id = t;
                Thread producer = new Thread(() -> {
                  try {
                    Semaphore inFlight = new Semaphore(4096);
                    int allocs = 0;
                    while (System.nanoTime() < deadline) {
                        AllocationState s = initial(job, dir + "-" + id + "-" + allocs++, System.nanoTime());
                        for (int e = 0; e < 60 && System.nanoTime() < deadline; e++) {
                            s = next(s, TASKS.get(e % TASKS.size()), System.currentTimeMillis() * 1_000_000L);
                            inFlight.acquireUninterruptibly();
                            store.persist(s, () -> {
                                acked.incrementAndGet();
                                inFlight.release();
                            });
                        }
                    }
                  } catch (RuntimeException | Error e) {
                    failure.compareAndSet(null, e);
                  } finally {
                    done.countDown(); // a writer that failed must not leave the row waiting for ever
                  }
                }, "bench-store-" + t);
                producer.start();
            }
            done.await();
            if (failure.get() != null) {
                throw new IllegalStateException("a store writer failed: " + failure.get(), failure.get());
            }
            long atDeadline = acked.get();
            return atDeadline / ((System.nanoTime() - t0) / 1e9);
        }
    }

    private static AllocationState initial(Job job, String id, long time) {
        Map<String, TaskState> tasks = new LinkedHashMap<>();
        TASKS.forEach(t -> tasks.put(t, TaskState.initial()));
        return new AllocationState(id, job.id() + ".g[0]", job.id(), "g", 0, ClientStatus.PENDING,
                ClientStatus.PENDING.description(), DesiredStatus.RUN, "", time, time, tasks, job);
    }

    /** The next version: one more event on {@code task}, cycling through event kinds. */
    private static AllocationState next(AllocationState s, String task, long time) {
        TaskState t = s.taskStates().get(task);
        int n = t.events().size();
        TaskEvent ev = switch (n % 4) {
            case 0 -> TaskEvents.received(time);
            case 1 -> TaskEvents.taskSetup(time);
            case 2 -> TaskEvents.started(time);
            default -> TaskEvents.terminated(time, new ExitResult(0, 0, false, "exit 0"));
        };
        if (n % 4 == 3 && n > 40) {
            ev = TaskEvents.killing(time, Duration.ofSeconds(5), "SIGINT", "");
        }
        Map<String, TaskState> tasks = new LinkedHashMap<>(s.taskStates());
        tasks.put(task, t.withEvent(ev));
        return new AllocationState(s.id(), s.name(), s.jobId(), s.taskGroup(), s.index(), ClientStatus.RUNNING,
                ClientStatus.RUNNING.description(), s.desiredStatus(), s.desiredDescription(), s.createTime(), time,
                tasks, s.job());
    }
}
