package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.locks.LockSupport;
import java.util.function.BooleanSupplier;
import org.junit.jupiter.api.Assumptions;
import org.openqa.selenium.By;
import org.openqa.selenium.JavascriptExecutor;
import org.openqa.selenium.OutputType;
import org.openqa.selenium.TakesScreenshot;
import org.openqa.selenium.WebElement;
import org.openqa.selenium.chrome.ChromeDriver;
import org.openqa.selenium.chrome.ChromeDriverService;
import org.openqa.selenium.chrome.ChromeOptions;

/**
 * A headless Chromium from Debian's packages driven by Selenium through Debian's chromium-driver (no browser or
 * driver download: both paths are given, so Selenium Manager is never asked). A fresh profile under the test's
 * temp dir. {@link #close()} quits and then proves no chromium or chromedriver process is left.
 */
final class Browser implements AutoCloseable {
    static final Path CHROMIUM = Path.of("/usr/bin/chromium");
    static final Path CHROMEDRIVER = Path.of("/usr/bin/chromedriver");
    static final Path SHOTS = Path.of("target", "ui-screenshots");

    final ChromeDriver driver;
    private final ChromeDriverService service;
    private final Path profile;

    /** Skips the calling test, with one line saying how to install Chromium, when it is absent. */
    static void assumeInstalled() {
        Assumptions.assumeTrue(Files.isExecutable(CHROMIUM) && Files.isExecutable(CHROMEDRIVER),
                "Chromium is not installed, so the web UI's browser tests skip: "
                        + "sudo apt-get install chromium chromium-driver");
    }

    Browser(Path tmp) throws IOException {
        profile = Files.createDirectories(tmp.resolve("chromium-profile"));
        service = new ChromeDriverService.Builder().usingDriverExecutable(CHROMEDRIVER.toFile()).usingAnyFreePort()
                .build();
        ChromeOptions options = new ChromeOptions();
        options.setBinary(CHROMIUM.toFile());
        options.addArguments("--headless", "--no-sandbox", "--disable-gpu", "--disable-background-networking",
                "--disable-component-update", "--disable-sync", "--no-first-run", "--disable-dev-shm-usage",
                "--user-data-dir=" + profile, "--window-size=1300,1000");
        driver = new ChromeDriver(service, options);
        driver.manage().timeouts().scriptTimeout(Duration.ofSeconds(20));
    }

    void open(String url) {
        driver.get(url);
    }

    Object js(String script, Object... args) {
        return ((JavascriptExecutor) driver).executeScript(script, args);
    }

    List<WebElement> all(String css) {
        return driver.findElements(By.cssSelector(css));
    }

    /**
     * The rendered text of the first element {@code css} selects, read in one script call, so that a live update
     * that replaces the element between a find and a read (a stale element) cannot fail the read; "" when none.
     */
    String text(String css) {
        Object t = js("var e = document.querySelector(arguments[0]); return e === null ? '' : e.innerText;", css);
        return t == null ? "" : t.toString();
    }

    WebElement one(String css) {
        return driver.findElement(By.cssSelector(css));
    }

    /** Polls {@code condition} (every 20 ms) until it holds or {@code limit} passes. */
    static void await(String what, Duration limit, BooleanSupplier condition) {
        long deadline = System.nanoTime() + limit.toNanos();
        RuntimeException last = null;
        while (System.nanoTime() < deadline) {
            try {
                if (condition.getAsBoolean()) {
                    return;
                }
            } catch (RuntimeException e) { // an element replaced by a live update meanwhile: look again
                last = e;
            }
            LockSupport.parkNanos(20_000_000);
        }
        throw new AssertionError("timed out after " + limit + " waiting for " + what, last);
    }

    void await(String what, BooleanSupplier condition) {
        await(what, Duration.ofSeconds(30), condition);
    }

    /** Saves a screenshot as target/ui-screenshots/{@code name}.png; returns its path. */
    Path screenshot(String name) throws IOException {
        Files.createDirectories(SHOTS);
        Path out = SHOTS.resolve(name + ".png");
        Files.write(out, ((TakesScreenshot) driver).getScreenshotAs(OutputType.BYTES));
        return out;
    }

    /** Saves a screenshot of one element (e.g. the timeline) as target/ui-screenshots/{@code name}.png. */
    Path screenshot(String name, WebElement element) throws IOException {
        Files.createDirectories(SHOTS);
        Path out = SHOTS.resolve(name + ".png");
        Files.write(out, element.getScreenshotAs(OutputType.BYTES));
        return out;
    }

    /** Milliseconds from the navigation's start to the page's {@code drover-rendered-<page>} mark. */
    double renderedMillis(String page) {
        Object v = js("const m = performance.getEntriesByName('drover-rendered-' + arguments[0]);"
                + "return m.length ? m[0].startTime : null;", page);
        if (v == null) {
            throw new AssertionError("page " + page + " never rendered");
        }
        return ((Number) v).doubleValue();
    }

    @Override
    public void close() {
        try {
            driver.quit();
        } finally {
            service.stop();
        }
        List<String> left = left();
        for (String p : left) {
            ProcessHandle.of(Long.parseLong(p.split(" ")[0])).ifPresent(ProcessHandle::destroyForcibly);
        }
        org.assertj.core.api.Assertions.assertThat(left).as("chromium or chromedriver processes left").isEmpty();
    }

    /**
     * Browser processes still alive, waiting up to 5 s for them to exit: the test JVM's descendants named
     * chrom*, and any process whose command line names this browser's profile (a helper reparented away).
     */
    private List<String> left() {
        long deadline = System.nanoTime() + Duration.ofSeconds(5).toNanos();
        List<String> found = scan();
        while (!found.isEmpty() && System.nanoTime() < deadline) {
            LockSupport.parkNanos(20_000_000);
            found = scan();
        }
        return found;
    }

    private List<String> scan() {
        List<String> found = new ArrayList<>();
        ProcessHandle.current().descendants().filter(ProcessHandle::isAlive).forEach(p -> {
            String cmd = p.info().command().orElse("");
            if (cmd.contains("chrom")) {
                found.add(p.pid() + " " + cmd);
            }
        });
        try (var procs = Files.newDirectoryStream(Path.of("/proc"), "[0-9]*")) {
            for (Path proc : procs) {
                try {
                    String cmdline = Files.readString(proc.resolve("cmdline")).replace('\0', ' ');
                    String stat = Files.readString(proc.resolve("stat"));
                    boolean zombie = stat.substring(stat.lastIndexOf(')') + 2).startsWith("Z");
                    String pid = proc.getFileName().toString();
                    if (!zombie && cmdline.contains(profile.toString())
                            && found.stream().noneMatch(f -> f.startsWith(pid + " "))) {
                        found.add(pid + " " + cmdline.strip());
                    }
                } catch (IOException | RuntimeException e) {
                    // gone meanwhile
                }
            }
        } catch (IOException e) {
            throw new AssertionError("cannot list /proc", e);
        }
        return found;
    }
}
