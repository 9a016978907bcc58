package io.drover.cli.e2e;

import static io.drover.cli.e2e.AgentApi.send;
import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Random;
import java.util.Set;
import java.util.concurrent.CopyOnWriteArrayList;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.locks.LockSupport;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 6's fault suite: {@code kill -9} of a real agent child JVM at random points during a churn of allocations
 * with mixed drivers (mock; raw_exec short, long, non-zero, SIGTERM-ignoring, with prestart/poststart/poststop
 * hooks and sidecars; a few java tasks), restarted on the same data_dir after each kill, for
 * {@code -Ddrover.fault.trials} trials (default 20; docs/faults.md) from {@code -Ddrover.fault.seed}. A client
 * ({@link EventOracle}) polls the API throughout. Invariants: an acknowledged allocation survives every restart;
 * each task's events seen before a kill are an exact prefix of its events after; State never blank; a task seen
 * dead never starts again; every task seen running at a kill ends with its true exit or {@code Not Recovered};
 * every allocation ends terminal after the last restart; each raw_exec/java task ran exactly as many times as
 * it has {@code Started} events; no process is left.
 */
class AgentKillChurnTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Duration START = Duration.ofSeconds(60);
    private static final Duration DRAIN = Duration.ofSeconds(90);

    @TempDir
    Path tmp;

    private final List<AgentProcess> agents = new CopyOnWriteArrayList<>();
    private volatile String addr;

    @AfterEach
    void noAgentAndNoTaskLeft() throws Exception {
        NoProcessLeft.closeAndAssertNone(agents, tmp);
    }

    @Test
    @Timeout(value = 30, unit = TimeUnit.MINUTES) // the full form's bound; the quick one takes about a minute
    void killDashNineAtRandomPointsOfAChurnLosesNothingRerunsNothingAndLeavesNothing() throws Exception {
        long seed = Long.getLong("drover.fault.seed", System.currentTimeMillis());
        int trials = Integer.getInteger("drover.fault.trials", 20);
        System.out.printf("AgentKillChurnTest: seed %d, %d trials (-Ddrover.fault.seed=%d -Ddrover.fault.trials=%d)%n",
                seed, trials, seed, trials);
        Random rnd = new Random(seed);
        Path config = config(tmp);
        ChurnJobs jobs = new ChurnJobs(tmp);
        EventOracle oracle = new EventOracle(seed);
        List<String> jobIds = new CopyOnWriteArrayList<>();
        Set<String> runningAtAKill = new LinkedHashSet<>();
        Thread poller = new Thread(() -> poll(jobIds, oracle), "churn-poller");
        poller.setDaemon(true);
        poller.start();
        long began = System.nanoTime();
        try {
            for (int trial = 0; trial < trials; trial++) {
                AgentProcess agent = start(config, trial, oracle);
                churn(agent, trial, rnd, jobs, jobIds, oracle);
                runningAtAKill.addAll(oracle.running());
                assertThat(agent.process().isAlive()).isFalse();
            }
            start(config, trials, oracle);
            drain(oracle);
        } finally {
            poller.interrupt();
            poller.join(5_000);
        }
        System.out.printf("AgentKillChurnTest: seed %d, %d trials, %d jobs, %d tasks seen running at a kill, %.1f s%n",
                seed, trials, jobIds.size(), runningAtAKill.size(), (System.nanoTime() - began) / 1e9);

        for (String id : oracle.acknowledged()) {
            JsonNode alloc = get("/v1/allocation/" + id);
            oracle.observe(alloc, "at the end");
            alloc.path("TaskStates").fields().forEachRemaining(t -> {
                if (!t.getValue().path("State").asText().equals("dead")) {
                    oracle.violation("task %s/%s is not dead at the end: %s", id, t.getKey(), t.getValue());
                }
            });
        }
        for (String key : runningAtAKill) {
            String[] parts = key.split("/", 2);
            List<String> types = oracle.events(parts[0], parts[1]).stream().map(e -> e.path("Type").asText()).toList();
            if (!types.contains("Terminated") && !types.contains("Not Recovered")) {
                oracle.violation("task %s was running at a kill and ended with neither its exit nor Not Recovered: %s",
                        key, types);
            }
        }
        checkRunsAndExitCodes(jobs, oracle);
        assertThat(NoProcessLeft.under(tmp)).as("[seed %d] processes left", seed).isEmpty();
        assertThat(oracle.violations()).as("[seed %d] invariants broken (reproduce: -Ddrover.fault.seed=%d "
                + "-Ddrover.fault.trials=%d)", seed, seed, trials).isEmpty();
    }

    /**
     * One trial on a started agent: jobs submitted at random offsets, some allocations stopped through the API,
     * and {@code kill -9} after a random delay, sampled so that kills land in every phase — placement and task
     * setup (the first few hundred ms after a submit), start, running, stop and escalation, poststop, GC.
     */
    private void churn(AgentProcess agent, int trial, Random rnd, ChurnJobs jobs, List<String> jobIds,
            EventOracle oracle) throws Exception {
        int band = rnd.nextInt(10);
        long killAt = band < 3 ? rnd.nextInt(400) : band < 7 ? 400 + rnd.nextInt(1100) : 1500 + rnd.nextInt(1000);
        record Action(long at, String job, String stopAlloc) {}
        List<Action> actions = new ArrayList<>();
        int n = 1 + rnd.nextInt(3);
        for (int i = 0; i < n; i++) {
            long at = i == 0 ? 0 : rnd.nextInt((int) killAt + 200);
            actions.add(new Action(at, "c" + trial + "-" + i, null));
        }
        List<String> live = oracle.acknowledged().stream().filter(a -> !oracle.terminal(a)).toList();
        for (String a : live) {
            if (rnd.nextInt(4) == 0) {
                actions.add(new Action(rnd.nextInt((int) killAt + 200), null, a));
            }
        }
        int stopsOfNew = rnd.nextInt(3) == 0 ? 1 : 0;
        long stopNewAt = rnd.nextInt((int) killAt + 200);
        actions.sort(java.util.Comparator.comparingLong(Action::at));
        Map<String, Path> files = new LinkedHashMap<>();
        for (Action a : actions) {
            if (a.job() != null) {
                files.put(a.job(), jobs.next(a.job(), rnd));
            }
        }

        System.out.printf("AgentKillChurnTest: trial %d: %d job(s), kill -9 at %d ms%n", trial, n, killAt);
        long t0 = System.nanoTime();
        Thread killer = new Thread(() -> {
            LockSupport.parkNanos(t0 + TimeUnit.MILLISECONDS.toNanos(killAt) - System.nanoTime());
            try {
                agent.kill(); // the fault: the injection point is a chosen instant, not an event to await
            } catch (InterruptedException e) {
                Thread.currentThread().interrupt();
            }
        }, "churn-killer");
        killer.start();
        List<String> placedHere = new ArrayList<>();
        boolean stoppedNew = false;
        for (Action a : actions) {
            LockSupport.parkNanos(t0 + TimeUnit.MILLISECONDS.toNanos(a.at()) - System.nanoTime());
            if (!agent.process().isAlive()) {
                break;
            }
            if (a.job() != null) {
                // polled from before the PUT: a listing must never show an allocation a kill could still erase
                // (docs/faults.md, fix 3)
                jobIds.add(a.job());
                submit(files.get(a.job()), oracle).ifPresent(placedHere::addAll);
            } else {
                stop(a.stopAlloc());
            }
            if (!stoppedNew && stopsOfNew > 0 && !placedHere.isEmpty()
                    && System.nanoTime() - t0 >= TimeUnit.MILLISECONDS.toNanos(stopNewAt)) {
                stoppedNew = true;
                stop(placedHere.get(0));
            }
        }
        killer.join();
    }

    /** Starts an agent on the shared data_dir; after a kill, checks that nothing a client saw was lost. */
    private AgentProcess start(Path config, int trial, EventOracle oracle) throws Exception {
        AgentProcess agent = AgentProcess.start(config, tmp.resolve("agent-" + trial + ".err"));
        agents.add(agent);
        long t = System.nanoTime();
        String address = agent.awaitAddress(START);
        System.out.printf("AgentKillChurnTest: agent %d up in %d ms%n", trial, (System.nanoTime() - t) / 1_000_000);
        for (String id : oracle.acknowledged()) {
            HttpResponse<String> r = send("GET", address + "/v1/allocation/" + id, null);
            if (r.statusCode() != 200) {
                oracle.violation("allocation %s, acknowledged before kill %d, is missing after the restart: %d %s",
                        id, trial, r.statusCode(), r.body());
            } else {
                oracle.observe(JSON.readTree(r.body()), "after restart " + trial);
            }
        }
        addr = address;
        return agent;
    }

    /** After the last restart every allocation must reach a terminal ClientStatus within {@link #DRAIN}. */
    private void drain(EventOracle oracle) throws Exception {
        long deadline = System.nanoTime() + DRAIN.toNanos();
        while (true) {
            List<String> open = oracle.acknowledged().stream().filter(a -> !oracle.terminal(a)).toList();
            for (String id : open) {
                oracle.observe(get("/v1/allocation/" + id), "draining");
            }
            if (open.isEmpty()) {
                return;
            }
            if (System.nanoTime() > deadline) {
                oracle.violation("allocations not terminal %s after the last restart: %s", DRAIN, open);
                return;
            }
            LockSupport.parkNanos(50_000_000);
        }
    }

    /**
     * Each raw_exec/java task ran exactly as many times as it has Started events (no re-run of a finished task, no
     * run the agent did not report), and a run that ended on its own (no Killing before its Terminated) reports
     * the task's true exit code. A run killed by a signal after Killing may be missing from the counter (it died
     * before its program wrote the line, see {@link #killedBySignal}); the count may never exceed the Started events.
     *
     * <p>The one exception (docs/faults.md): an agent killed after it started a run but before it recorded the
     * run's handle. The next agent finds {@code Task Setup} (recorded before every first run) but no handle: it
     * kills the run's processes if they still run and marks the task {@code Not Recovered} ("no handle was
     * recorded for its run"). That task may have one run without a Started event: zero or one, even when the
     * message says its processes were found and killed (a child JVM found before it reached main wrote no line;
     * {@code UnrecordedRunTest} checks that message exactly).
     */
    private void checkRunsAndExitCodes(ChurnJobs jobs, EventOracle oracle) throws Exception {
        for (ChurnJobs.Counted c : jobs.counted().values()) {
            HttpResponse<String> r = send("GET", addr + "/v1/job/" + c.jobId() + "/allocations", null);
            Set<String> allocs = new LinkedHashSet<>();
            if (r.statusCode() == 200) {
                for (JsonNode a : JSON.readTree(r.body())) {
                    allocs.add(a.path("ID").asText());
                    checkRuns(c, a, oracle);
                }
            }
            for (String line : ChurnJobs.runLines(c)) {
                if (!allocs.contains(line.split(" ")[0])) {
                    oracle.violation("task %s.%s ran in allocation %s, which the agent does not know", c.jobId(),
                            c.task(), line);
                }
            }
        }
    }

    private void checkRuns(ChurnJobs.Counted c, JsonNode alloc, EventOracle oracle) throws Exception {
        String id = alloc.path("ID").asText();
        List<JsonNode> events = new ArrayList<>();
        alloc.path("TaskStates").path(c.task()).path("Events").forEach(events::add);
        long started = events.stream().filter(e -> e.path("Type").asText().equals("Started")).count();
        String unrecorded = events.stream().filter(e -> e.path("Type").asText().equals("Not Recovered"))
                .map(e -> e.path("DisplayMessage").asText()).filter(m -> m.contains("no handle was recorded"))
                .findFirst().orElse(null);
        long runs = ChurnJobs.runs(c, id);
        long killedBySignal = killedBySignal(c, events);
        long low = started - killedBySignal;
        // a run without a recorded handle may have no counter line even when its processes were found and
        // killed: the next agent can kill a child JVM before it reaches main
        boolean ok = runs >= low && runs <= started + (unrecorded == null ? 0 : 1);
        if (!ok) {
            oracle.violation("task %s.%s (%s) of %s ran %d time(s) but has %d Started event(s): %s", c.jobId(),
                    c.task(), c.driver(), id, runs, started, events);
        }
        boolean killing = false;
        for (JsonNode e : events) {
            String type = e.path("Type").asText();
            killing |= type.equals("Killing");
            if (type.equals("Terminated") && !killing && e.path("Signal").asInt() == c.killSignal()) {
                // the agent signals only once Killing is durable (found by the 200-trial run, seed 20261201)
                oracle.violation("task %s.%s of %s ended by its kill_signal (%d) with no Killing event recorded: %s",
                        c.jobId(), c.task(), id, c.killSignal(), e);
            } else if (type.equals("Terminated") && !killing && e.path("ExitCode").asInt() != c.exitCode()) {
                oracle.violation("task %s.%s of %s ended on its own with exit code %d, not its true %d: %s",
                        c.jobId(), c.task(), id, e.path("ExitCode").asInt(), c.exitCode(), e);
            }
        }
    }

    /**
     * How many runs ended by a signal after a {@code Killing} event: the task's kill_signal or SIGKILL. Such a run
     * may have died before its program wrote its counter line (a child JVM takes ~100 ms to reach {@code main}; CI
     * saw a java task stopped 0.3 ms after Started end with 143), so it may be missing from the counter — but never
     * a run without a Started event: its Terminated carries the wait status of a real process. A JVM whose signal
     * handlers are in turns the kill_signal into an exit of 128 + that signal (no {@code Signal} in the wait
     * status), still before {@code main} when the JVM is slow to start (seed 1796162366053: 143 some 414 ms after
     * Started, under a loaded machine): that run counts as killed by the signal too.
     */
    private static long killedBySignal(ChurnJobs.Counted c, List<JsonNode> events) {
        long n = 0;
        boolean killing = false;
        for (JsonNode e : events) {
            String type = e.path("Type").asText();
            if (type.equals("Killing")) {
                killing = true;
            } else if (type.equals("Terminated")) {
                int signal = e.path("Signal").asInt();
                boolean jvmExitBySignal = e.path("ExitCode").asInt() == 128 + c.killSignal();
                if (killing && (signal == c.killSignal() || signal == 9 || jvmExitBySignal)) {
                    n++;
                }
                killing = false;
            }
        }
        return n;
    }

    /** The client that watches: polls every job's allocations every 20 ms (while an agent answers). */
    private void poll(List<String> jobIds, EventOracle oracle) {
        while (!Thread.currentThread().isInterrupted()) {
            String address = addr;
            if (address != null) {
                for (String job : jobIds) {
                    try {
                        HttpResponse<String> r = send("GET", address + "/v1/job/" + job + "/allocations", null);
                        if (r.statusCode() == 200) {
                            for (JsonNode a : JSON.readTree(r.body())) {
                                oracle.observe(a, "polling");
                            }
                        }
                    } catch (java.io.IOException e) {
                        break; // the agent is down (killed): the next one gets a new address
                    } catch (InterruptedException e) {
                        return;
                    } catch (RuntimeException e) {
                        oracle.violation("polling %s failed: %s", job, e);
                    }
                }
            }
            LockSupport.parkNanos(20_000_000);
        }
    }

    private java.util.Optional<List<String>> submit(Path job, EventOracle oracle) throws Exception {
        String body = JSON.writeValueAsString(Map.of("JobHCL", Files.readString(job)));
        HttpResponse<String> r;
        try {
            r = send("PUT", addr + "/v1/jobs", body);
        } catch (java.io.IOException e) {
            return java.util.Optional.empty(); // killed while placing: not acknowledged
        }
        if (r.statusCode() != 200) {
            oracle.violation("job %s refused: %d %s", job.getFileName(), r.statusCode(), r.body());
            return java.util.Optional.empty();
        }
        List<String> ids = new ArrayList<>();
        JSON.readTree(r.body()).path("Allocations").forEach(a -> ids.add(a.asText()));
        ids.forEach(oracle::acknowledged);
        return java.util.Optional.of(ids);
    }

    private void stop(String allocId) throws Exception {
        try {
            send("POST", addr + "/v1/allocation/" + allocId + "/stop", "");
        } catch (java.io.IOException e) {
            // killed meanwhile: the stop may or may not have been recorded
        }
    }

    private JsonNode get(String path) throws Exception {
        HttpResponse<String> r = send("GET", addr + path, null);
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    /** raw_exec on, a small gc_max_allocs so that GC runs during the churn, a short max_kill_timeout. */
    private static Path config(Path dir) throws Exception {
        return AgentTestConfig.writeWithRawExec(dir, """
                  max_kill_timeout     = "2s"
                  gc_max_allocs        = 6
                  gc_parallel_destroys = 2
                """);
    }
}
