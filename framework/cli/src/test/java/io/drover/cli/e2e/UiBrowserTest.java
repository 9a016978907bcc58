package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.cli.CliRun;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInfo;
import org.junit.jupiter.api.Timeout;
import org.junit.jupiter.api.io.TempDir;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.interactions.Actions;

/**
 * The web UI in a real headless Chromium against a real agent process with real raw_exec tasks: what a user sees
 * on the seed's scenario, the kill-escalation sample, a task printing while the page follows its log, the token
 * prompt, and the render times (Performance API). A failing test leaves a screenshot in target/ui-screenshots/.
 * No agent, task, chromium or chromedriver process is left after any test.
 */
@Timeout(value = 300, unit = TimeUnit.SECONDS)
class UiBrowserTest {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final HttpClient HTTP = HttpClient.newHttpClient();

    @TempDir
    Path tmp;
    private AgentProcess agent;
    private Browser browser;
    private String addr;
    private String token;
    private String testName;
    private Path dataDir; // null: tmp/data
    private Path shm; // a data dir in /dev/shm to delete after the test

    @BeforeEach
    void browser(TestInfo info) throws Exception {
        Browser.assumeInstalled();
        testName = info.getTestMethod().orElseThrow().getName();
        browser = new Browser(tmp);
    }

    @AfterEach
    void nothingLeft() throws Exception {
        try {
            if (browser != null) {
                browser.close();
            }
        } finally {
            // kills (and names) any task a failed test left running: the agent leaves tasks for its successor
            NoProcessLeft.closeAndAssertNone(agent == null ? List.of() : List.of(agent), tmp);
            if (shm != null) {
                assertThat(NoProcessLeft.under(shm)).isEmpty();
                try (var files = Files.walk(shm)) {
                    for (Path p : (Iterable<Path>) files.sorted(java.util.Comparator.reverseOrder())::iterator) {
                        Files.delete(p);
                    }
                }
            }
        }
    }

    /** Runs the test's body; on failure saves a screenshot first. */
    private void shotOnFailure(ThrowingRunnable body) throws Exception {
        try {
            body.run();
        } catch (Throwable t) {
            try {
                Path shot = browser.screenshot(testName);
                t.addSuppressed(new AssertionError("screenshot: " + shot.toAbsolutePath()));
            } catch (Exception e) {
                t.addSuppressed(e);
            }
            throw t;
        }
    }

    @FunctionalInterface
    interface ThrowingRunnable {
        void run() throws Exception;
    }

    private void startAgent(String client, String extra) throws Exception {
        Path config = Files.writeString(tmp.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                ports {
                  http = 0
                }
                client {
                  %s
                }
                plugin "raw_exec" {
                  config {
                    enabled = true
                  }
                }
                %s
                """.formatted(dataDir != null ? dataDir : tmp.resolve("data"),
                        System.getProperty("drover.test.plugins"), client, extra));
        agent = AgentProcess.start(config, tmp.resolve("agent.err"));
        addr = agent.awaitAddress(Duration.ofSeconds(60));
    }

    private JsonNode api(String path) throws Exception {
        HttpRequest.Builder b = HttpRequest.newBuilder(URI.create(addr + path));
        if (token != null) {
            b.header("X-Nomad-Token", token);
        }
        HttpResponse<String> r = HTTP.send(b.build(), HttpResponse.BodyHandlers.ofString());
        assertThat(r.statusCode()).as(path + ": " + r.body()).isEqualTo(200);
        return JSON.readTree(r.body());
    }

    private String run(String... args) {
        List<String> all = new ArrayList<>(List.of("job", "run", "-address", addr));
        all.addAll(Arrays.asList(args));
        CliRun r = CliRun.of(all.toArray(String[]::new));
        assertThat(r.exitCode()).as(r.err()).isZero();
        return r.out().strip();
    }

    private String allocOf(String job) throws Exception {
        return api("/v1/job/" + job + "/allocations").get(0).path("ID").asText();
    }

    private static long attr(WebElement e, String name) {
        return Long.parseLong(e.getAttribute(name));
    }

    private List<String> rowOrder() {
        return browser.all("#timeline-svg .task-row").stream().map(e -> e.getAttribute("data-task")).toList();
    }

    /** An attribute of the first element matching {@code css}, read in one script (a live redraw cannot stale it). */
    private String attrOf(String css, String name) {
        Object v = browser.js("const e = document.querySelector(arguments[0]); return e && e.getAttribute(arguments[1]);",
                css, name);
        return v == null ? null : v.toString();
    }

    private String outcome(String task) {
        return attrOf("#timeline-svg .bar[data-task='" + task + "']:last-of-type", "data-outcome");
    }

    private WebElement bar(String task) {
        return browser.one("#timeline-svg .bar[data-task='" + task + "']");
    }

    private List<WebElement> markers(String task, String type) {
        return browser.all("#timeline-svg .marker[data-task='" + task + "'][data-type='" + type + "']");
    }

    @Test
    void theSeedAllocationsTimelineThenItsGarbageCollectionLiveWithoutReload() throws Exception {
        startAgent("gc_max_allocs = 1", "");
        shotOnFailure(() -> {
            run(TestConfig.SAMPLES.resolve("poststop.hcl").toString());
            String id = allocOf("example");
            browser.open(addr + "/ui/jobs");
            browser.await("the jobs table", () -> !browser.all("#jobs-body tr[data-job='example']").isEmpty());
            WebElement row = browser.one("#jobs-body tr[data-job='example']");
            assertThat(row.getText()).contains("example", "batch", "dead");
            assertThat(row.findElement(org.openqa.selenium.By.cssSelector("[data-count='Complete']")).getText())
                    .isEqualTo("1");
            row.findElement(org.openqa.selenium.By.tagName("a")).click(); // client-side navigation
            browser.await("the job page", () -> !browser.all("#job-allocs-body tr[data-alloc]").isEmpty());
            assertThat(browser.driver.getCurrentUrl()).endsWith("/ui/jobs/example");
            browser.one("#job-allocs-body a").click();
            browser.await("the allocation page", () -> browser.all("#timeline-svg .bar").size() == 2);
            assertThat(browser.driver.getCurrentUrl()).endsWith("/ui/allocations/" + id);

            assertThat(rowOrder()).containsExactly("test-task", "poststop");
            assertThat(bar("test-task").getAttribute("data-outcome")).isEqualTo("ok");
            assertThat(bar("poststop").getAttribute("data-outcome")).isEqualTo("ok");
            assertThat(attr(bar("poststop"), "data-start")).as("poststop starts after the main task ended")
                    .isGreaterThanOrEqualTo(attr(bar("test-task"), "data-end"));
            for (String type : List.of("Received", "Task Setup", "Started", "Terminated")) {
                assertThat(markers("poststop", type)).as(type).hasSize(1);
            }
            assertThat(browser.all("#timeline-svg .marker[data-type='Garbage Collected']")).isEmpty();
            assertThat(browser.all(".task[data-task='poststop'] tr[data-type]")).hasSize(4);
            browser.await("test-task's output", () -> browser.text("#log-output").contains("foo"));
            browser.screenshot("seed-timeline-before-gc");

            String second = tmp.resolve("second.hcl").toString();
            Files.writeString(Path.of(second), """
                    job "second" {
                      type = "batch"
                      group "g" {
                        task "t" {
                          driver = "raw_exec"
                          config {
                            command = "true"
                          }
                        }
                      }
                    }
                    """);
            String url = browser.driver.getCurrentUrl();
            browser.js("window.__sameDocument = true");
            run(second);
            browser.await("the Garbage Collected markers, live", () -> browser.all(
                    "#timeline-svg .marker[data-type='Garbage Collected']").size() == 2);
            assertThat(browser.js("return window.__sameDocument === true")).as("no reload").isEqualTo(true);
            assertThat(browser.driver.getCurrentUrl()).isEqualTo(url);
            long gcAt = attr(markers("poststop", "Garbage Collected").get(0), "data-time");
            assertThat(gcAt).as("GC after the poststop run").isGreaterThan(attr(bar("poststop"), "data-end"));
            assertThat(browser.text("#gc-notice")).contains("Garbage collected", "directory and logs are gone",
                    "record");
            browser.await("the log panel says the logs are gone", () -> !browser.all("#logs-gone").isEmpty());
            assertThat(browser.all(".task[data-task='poststop'] tr[data-type]")).hasSize(5);
            browser.screenshot("seed-timeline", browser.one(".timeline-box")); // docs/ui.md's picture

            browser.open(addr + "/ui/allocations/" + id); // a deep link, after GC: the kept record
            browser.await("the kept record", () -> browser.all("#timeline-svg .bar").size() == 2
                    && !browser.all("#gc-notice").isEmpty());
        });
    }

    @Test
    void theKillEscalationSampleShowsTheKillTimeoutWindowThenSigkill() throws Exception {
        startAgent("", "");
        shotOnFailure(() -> {
            run("-detach", TestConfig.SAMPLES.resolve("kill-escalation.hcl").toString());
            String id = allocOf("kill-escalation");
            browser.open(addr + "/ui/allocations/" + id);
            browser.await("the report task's run", () -> !browser.all("#timeline-svg .bar[data-task='report']").isEmpty()
                    && !"running".equals(bar("report").getAttribute("data-outcome")));
            assertThat(rowOrder()).containsExactly("leader", "stubborn", "report");
            WebElement killing = markers("stubborn", "Killing").get(0);
            WebElement window = browser.one("#timeline-svg .task-row[data-task='stubborn'] .kill-window");
            assertThat(attr(window, "data-start")).isEqualTo(attr(killing, "data-time"));
            // The page computes in JavaScript numbers: a Unix time in nanoseconds (~1.7e18) is past 2^53, so
            // start + 500 ms is exact only to the double's spacing there (256 ns); seen as 499,999,900 in CI.
            assertThat(attr(window, "data-end") - attr(window, "data-start")).as("kill_timeout 500ms")
                    .isCloseTo(500_000_000L, org.assertj.core.data.Offset.offset(1_000L));
            List<WebElement> sigkill = markers("stubborn", "SIGKILL");
            assertThat(sigkill).hasSize(1);
            long sigkillAt = attr(sigkill.get(0), "data-time");
            long terminated = attr(markers("stubborn", "Terminated").get(0), "data-time");
            assertThat(sigkillAt).as("SIGKILL after the kill_timeout window").isGreaterThanOrEqualTo(attr(window, "data-end"));
            assertThat(sigkillAt).isLessThanOrEqualTo(terminated);
            assertThat(bar("stubborn").getAttribute("data-outcome")).isEqualTo("sigkill");
            assertThat(bar("leader").getAttribute("data-outcome")).isEqualTo("ok");
            assertThat(attr(bar("leader"), "data-end")).as("the leader ended before the kill")
                    .isLessThanOrEqualTo(attr(killing, "data-time"));
            assertThat(attr(bar("report"), "data-start")).as("poststop after the SIGKILLed sibling")
                    .isGreaterThanOrEqualTo(attr(bar("stubborn"), "data-end"));
            assertThat(markers("stubborn", "Terminated").get(0).getAttribute("data-label"))
                    .contains("Exit Code: 137, Signal: 9");

            new Actions(browser.driver).moveToElement(killing).perform();
            browser.await("the Killing message on hover", () -> browser.one("#timeline-tip").isDisplayed()
                    && browser.text("#timeline-tip").startsWith("Killing:"));
            assertThat(browser.text("#timeline-tip")).contains("kill_timeout 500ms");

            int before = browser.one("#timeline-svg .bar[data-task='stubborn']").getRect().getWidth();
            browser.one("#zoom-in").click();
            int zoomed = browser.one("#timeline-svg .bar[data-task='stubborn']").getRect().getWidth();
            assertThat(zoomed).as("zoom in widens the bars").isGreaterThan((int) (before * 1.5));
            browser.one("#zoom-reset").click();
            assertThat(browser.one("#timeline-svg .bar[data-task='stubborn']").getRect().getWidth())
                    .isCloseTo(before, org.assertj.core.data.Offset.offset(1));
            browser.screenshot("kill-escalation-timeline", browser.one(".timeline-box"));
        });
    }

    @Test
    void logsAppearWhileTheTaskPrintsAndSignalAndStopAreConfirmedFromThePage() throws Exception {
        startAgent("", "");
        shotOnFailure(() -> {
            Path job = Files.writeString(tmp.resolve("printer.hcl"), """
                    job "printer" {
                      type = "batch"
                      group "g" {
                        task "printer" {
                          driver       = "raw_exec"
                          kill_timeout = "2s"
                          config {
                            command = "sh"
                            args    = ["-c", "trap 'echo got-usr1' USR1; i=0; while [ $i -lt 600 ]; do i=$((i+1)); echo line-$i; sleep 0.2; done"]
                          }
                        }
                      }
                    }
                    """);
            run("-detach", job.toString());
            String id = allocOf("printer");
            browser.open(addr + "/ui/allocations/" + id);
            browser.await("the first lines", () -> browser.text("#log-output").contains("line-2"));
            String first = browser.text("#log-output");
            browser.await("more lines, live", () -> browser.text("#log-output").length() > first.length() + 20);
            assertThat(outcome("printer")).isEqualTo("running");

            browser.driver.findElement(org.openqa.selenium.By.cssSelector("#signal-task option[value='printer']")).click();
            browser.driver.findElement(org.openqa.selenium.By.cssSelector("#signal-name option[value='SIGUSR1']")).click();
            browser.one("#send-signal").click();
            browser.await("the confirmation", () -> browser.one("#confirm-dialog").isDisplayed());
            assertThat(browser.text("#confirm-text")).contains("SIGUSR1", "printer");
            browser.one("#confirm-ok").click();
            browser.await("the task's reaction in its log", () -> browser.text("#log-output").contains("got-usr1"));
            browser.await("the Signaling event", () -> !markers("printer", "Signaling").isEmpty());

            browser.one("#stop-alloc").click();
            browser.await("the confirmation", () -> browser.one("#confirm-dialog").isDisplayed());
            browser.one("#confirm-cancel").click();
            assertThat(api("/v1/allocation/" + id).path("ClientStatus").asText()).as("cancel stops nothing")
                    .isEqualTo("running");
            browser.one("#stop-alloc").click();
            browser.await("the confirmation", () -> browser.one("#confirm-dialog").isDisplayed());
            browser.one("#confirm-ok").click();
            browser.await("the killed run, live", () -> "killed".equals(outcome("printer")));
            assertThat(markers("printer", "Killing")).hasSize(1);
            browser.await("the follow's end", () -> browser.text("#log-status").contains("log complete"));
        });
    }

    @Test
    void withATokenThePageAsksForItKeepsItForTheTabAndRunsGcConfirmed() throws Exception {
        token = "ui-test-token-0123456789";
        startAgent("", "acl {\n  token = \"" + token + "\"\n}");
        shotOnFailure(() -> {
            browser.open(addr + "/ui/jobs");
            browser.await("the token prompt", () -> browser.one("#token-dialog").isDisplayed());
            browser.one("#token-input").sendKeys("wrong-token");
            browser.one("#token-submit").click();
            browser.await("the prompt again, saying why", () -> browser.one("#token-dialog").isDisplayed()
                    && browser.text("#token-error").contains("refused"));
            browser.one("#token-input").sendKeys(token);
            browser.one("#token-submit").click();
            browser.await("the jobs page", () -> !browser.all("#jobs-table").isEmpty()
                    && !browser.one("#token-dialog").isDisplayed());
            assertThat(browser.js("return sessionStorage.getItem('drover.token')")).isEqualTo(token);
            assertThat(browser.js("return localStorage.length")).as("not kept beyond the tab").isEqualTo(0L);
            browser.await("the event stream, with the token", () -> browser.text("#live").equals("live"));

            browser.one("#nav-plugins").click();
            browser.await("the plugins page", () -> !browser.all("#plugins-table tr[data-driver='raw_exec']").isEmpty());
            assertThat(browser.text("#plugins-table tr[data-driver='raw_exec']")).contains("healthy");

            browser.one("#gc-button").click();
            browser.await("the confirmation", () -> browser.one("#confirm-dialog").isDisplayed());
            browser.one("#confirm-ok").click();
            browser.await("the agent's GC pass", () -> {
                try {
                    return agent.stderr().contains("gc requested");
                } catch (java.io.IOException e) {
                    throw new java.io.UncheckedIOException(e);
                }
            });
            browser.await("the flash", () -> browser.text("#flash").contains("Garbage collection scheduled"));
        });
    }

    @Test
    void renderTimes_anAllocationOf3TasksAnd50EventsAndTheJobsPageWith10000Allocations() throws Exception {
        // 10,000 allocation directories: on a tmpfs where there is one, so that deleting them afterwards takes
        // seconds, not minutes, on a busy disk
        if (Files.isDirectory(Path.of("/dev/shm")) && Files.isWritable(Path.of("/dev/shm"))) {
            shm = Files.createTempDirectory(Path.of("/dev/shm"), "drover-ui-test-");
            dataDir = shm.resolve("data");
        }
        startAgent("gc_max_allocs = 20000\n  max_tasks = 20000", "");
        shotOnFailure(() -> {
            Path flap = Files.writeString(tmp.resolve("flap.hcl"), """
                    job "flap" {
                      type = "batch"
                      group "g" {
                        restart {
                          attempts = 8
                          interval = "1h"
                          delay    = "20ms"
                          mode     = "fail"
                        }
                        task "a" {
                          driver = "mock"
                          config {
                            run_for   = "10ms"
                            exit_code = 1
                          }
                        }
                        task "b" {
                          driver = "mock"
                          config {
                            run_for   = "10ms"
                            exit_code = 1
                          }
                        }
                        task "c" {
                          driver = "mock"
                          config {
                            run_for   = "10ms"
                            exit_code = 1
                          }
                        }
                      }
                    }
                    """);
            run("-detach", flap.toString());
            String id = allocOf("flap");
            JsonNode done = awaitApi("/v1/allocation/" + id, a -> a.path("ClientStatus").asText().equals("failed"));
            int events = 0;
            for (JsonNode t : done.path("TaskStates")) {
                events += t.path("Events").size();
            }
            assertThat(done.path("TaskStates").size()).isEqualTo(3);
            assertThat(events).as("events of the allocation").isGreaterThanOrEqualTo(50);
            double allocMs = median(5, () -> {
                browser.open(addr + "/ui/allocations/" + id);
                browser.await("the timeline", () -> "alloc".equals(browser.js("return document.body.dataset.page")));
                assertThat(browser.all("#timeline-svg .bar").size()).isGreaterThanOrEqualTo(9);
                return browser.renderedMillis("alloc");
            });

            Path many = Files.writeString(tmp.resolve("many.hcl"), """
                    job "many" {
                      type = "batch"
                      group "g" {
                        count = 10000
                        task "t" {
                          driver = "mock"
                          config {
                            run_for = "1ms"
                          }
                        }
                      }
                    }
                    """);
            run("-detach", many.toString());
            awaitApi("/v1/jobs?filter=ID%20==%20%22many%22",
                    j -> j.get(0).path("Allocations").path("Complete").asInt() == 10000);
            assertThat(api("/v1/allocations?per_page=1").size()).isEqualTo(1);
            double jobsMs = median(5, () -> {
                browser.open(addr + "/ui/jobs");
                browser.await("the jobs page", () -> "jobs".equals(browser.js("return document.body.dataset.page")));
                assertThat(browser.text("#jobs-body tr[data-job='many'] [data-count='Complete']"))
                        .isEqualTo("10000");
                return browser.renderedMillis("jobs");
            });
            double jobMs = median(3, () -> {
                browser.open(addr + "/ui/jobs/many");
                browser.await("the job page", () -> "job".equals(browser.js("return document.body.dataset.page")));
                assertThat(browser.all("#job-allocs-body tr[data-alloc]")).hasSize(50);
                return browser.renderedMillis("job");
            });
            String figures = String.format("ui render (median of 5, navigation start to rendered): allocation of 3 "
                    + "tasks and %d events %.0f ms; jobs page with 10000 allocations %.0f ms; job page of 10000 "
                    + "allocations (first 50) %.0f ms%n", events, allocMs, jobsMs, jobMs);
            // the aims (allocation page 300 ms, jobs page 1 s) are figures, recorded here for docs/ui.md, not
            // asserted: a timed unit test flakes on a shared machine (it did at load 6 in session 11, 307 ms).
            // What is asserted is ten times the aim: a page that slow is a regression whatever the load.
            double load = loadAverage();
            int cores = Runtime.getRuntime().availableProcessors();
            figures += String.format("(load average %.1f on %d cores; aims 300 ms and 1000 ms)%n", load, cores);
            System.out.print(figures);
            Files.createDirectories(Path.of("target"));
            Files.writeString(Path.of("target", "ui-render-times.txt"), figures);
            assertThat(allocMs).as("allocation page render, ms (10x its aim)").isLessThanOrEqualTo(3000);
            assertThat(jobsMs).as("jobs page render with 10000 allocations, ms (10x its aim)")
                    .isLessThanOrEqualTo(10000);
        });
    }

    /** The 1-minute load average (0 when /proc/loadavg cannot be read). */
    private static double loadAverage() {
        try {
            return Double.parseDouble(Files.readString(Path.of("/proc/loadavg")).split(" ")[0]);
        } catch (java.io.IOException | RuntimeException e) {
            return 0;
        }
    }

    @FunctionalInterface
    interface Measure {
        double ms() throws Exception;
    }

    private static double median(int n, Measure m) throws Exception {
        double[] v = new double[n];
        for (int i = 0; i < n; i++) {
            v[i] = m.ms();
        }
        Arrays.sort(v);
        return v[n / 2];
    }

    private JsonNode awaitApi(String path, java.util.function.Predicate<JsonNode> done) throws Exception {
        long deadline = System.nanoTime() + Duration.ofSeconds(120).toNanos();
        JsonNode last = null;
        while (System.nanoTime() < deadline) {
            last = api(path);
            if (done.test(last)) {
                return last;
            }
            java.util.concurrent.locks.LockSupport.parkNanos(50_000_000);
        }
        throw new AssertionError("timed out waiting on " + path + ": " + last);
    }
}
