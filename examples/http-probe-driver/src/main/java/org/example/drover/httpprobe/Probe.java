package org.example.drover.httpprobe;

import io.drover.driver.api.ExitResult;
import io.drover.driver.api.Timers;
import io.drover.driver.api.schema.ConfigView;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.time.Duration;
import java.util.concurrent.CompletableFuture;

/**
 * One task: probes, one at a time, each after the interval, until a probe fails, the good probes reach
 * {@code max_probes}, or a signal ends it. Its exit completes once, whichever comes first. Thread-safe: timer and
 * HTTP callbacks only schedule the next step.
 */
final class Probe {
    final String taskId;
    final long startedAt;
    final CompletableFuture<ExitResult> exit = new CompletableFuture<>();
    private final URI url;
    private final Duration interval;
    private final Duration timeout;
    private final int expectStatus;
    private final long maxProbes;
    private final int failExitCode;
    private final HttpClient client;
    private final Timers timers;
    private long good; // written by one probe step at a time
    private volatile Timers.Cancellable next;

    Probe(String taskId, ConfigView config, HttpClient client, Timers timers, long startedAt) {
        this.taskId = taskId;
        this.url = URI.create(config.string("url"));
        this.interval = config.duration("interval");
        this.timeout = config.duration("timeout");
        this.expectStatus = (int) config.integer("expect_status");
        this.maxProbes = config.integer("max_probes");
        this.failExitCode = (int) config.integer("fail_exit_code");
        this.client = client;
        this.timers = timers;
        this.startedAt = startedAt;
    }

    /** The first probe goes out at once. */
    void begin() {
        next = timers.schedule(Duration.ZERO, this::probe);
    }

    private void probe() {
        if (exit.isDone()) {
            return;
        }
        HttpRequest request = HttpRequest.newBuilder(url).timeout(timeout).GET().build();
        client.sendAsync(request, HttpResponse.BodyHandlers.discarding()).whenComplete((response, error) -> {
            if (error != null) {
                fail("probe of " + url + " failed: " + error.getClass().getSimpleName()
                        + (error.getMessage() == null ? "" : ": " + error.getMessage()));
            } else if (response.statusCode() != expectStatus) {
                fail("probe of " + url + " answered " + response.statusCode() + ", expected " + expectStatus);
            } else if (maxProbes > 0 && ++good >= maxProbes) {
                exit.complete(new ExitResult(0, 0, false, good + " good probe(s) of " + url));
            } else if (!exit.isDone()) {
                next = timers.schedule(interval, this::probe);
            }
        });
    }

    private void fail(String message) {
        exit.complete(new ExitResult(failExitCode, 0, false, message));
    }

    /** Ends the task now (a signal, destroy); a no-op once it has ended. */
    void end(ExitResult result) {
        if (exit.complete(result)) {
            Timers.Cancellable t = next;
            if (t != null) {
                t.cancel();
            }
        }
    }
}
