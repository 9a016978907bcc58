package io.drover.core.store;

import io.drover.core.state.AllocationState;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * Child process of {@link CrashTest}: persists one new event at a time on four allocations, forever, and prints
 * {@code ack <alloc> <events>} once a version is durable. Exits when its stdin closes (the test is gone).
 */
public final class CrashChild {
    private CrashChild() {}

    public static void main(String[] args) throws Exception {
        Thread watchdog = new Thread(() -> {
            try {
                while (System.in.read() >= 0) {
                    // wait for EOF
                }
            } catch (Exception ignored) {
                // parent gone
            }
            Runtime.getRuntime().halt(3);
        });
        watchdog.setDaemon(true);
        watchdog.start();
        PrintStream out = new PrintStream(System.out, true, "UTF-8");
        JournalStore store = JournalStore.open(Path.of(args[0]));
        AllocationState[] allocs = new AllocationState[4];
        for (int a = 0; a < allocs.length; a++) {
            allocs[a] = StoreFixtures.initial(StoreFixtures.job("crash"), "alloc-" + a, a);
        }
        java.util.concurrent.Semaphore inFlight = new java.util.concurrent.Semaphore(2000);
        for (long i = 0; ; i++) {
            int a = (int) (i % allocs.length);
            AllocationState s = StoreFixtures.next(allocs[a], "main", 1_000 + i);
            allocs[a] = s;
            int events = s.taskStates().get("main").events().size();
            inFlight.acquireUninterruptibly();
            store.persist(s, () -> {
                out.println("ack " + s.id() + " " + events);
                inFlight.release();
            });
        }
    }
}
