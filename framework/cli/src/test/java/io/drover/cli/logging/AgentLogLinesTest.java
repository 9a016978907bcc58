package io.drover.cli.logging;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.Level;
import ch.qos.logback.classic.Logger;
import ch.qos.logback.classic.LoggerContext;
import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.OutputStreamAppender;
import ch.qos.logback.core.encoder.LayoutWrappingEncoder;
import io.drover.agent.Agent;
import io.drover.core.config.AgentConfig;
import io.drover.core.config.ClientConfig;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import java.io.ByteArrayOutputStream;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import java.util.concurrent.TimeUnit;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.slf4j.LoggerFactory;

/**
 * Issue 4: the agent's log lines about an allocation or a task carry its IDs ({@code alloc_id=... task=...}, as
 * Nomad's client), and no line is attributed to the wrong allocation although all allocations share the engine
 * pool's threads. Captures the agent's log through the CLI's own {@link LineLayout}.
 */
class AgentLogLinesTest {
    private static final Pattern ALLOC_ID = Pattern.compile(" alloc_id=([0-9a-f-]{36})");
    private static final Pattern UUID = Pattern.compile("[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}");

    @TempDir
    Path tmp;

    private final ByteArrayOutputStream captured = new ByteArrayOutputStream();
    private OutputStreamAppender<ILoggingEvent> appender;
    private Level previousLevel;

    @BeforeEach
    void capture() {
        LoggerContext context = (LoggerContext) LoggerFactory.getILoggerFactory();
        LineLayout layout = new LineLayout();
        layout.setContext(context);
        layout.start();
        LayoutWrappingEncoder<ILoggingEvent> encoder = new LayoutWrappingEncoder<>();
        encoder.setContext(context);
        encoder.setLayout(layout);
        encoder.start();
        appender = new OutputStreamAppender<>();
        appender.setContext(context);
        appender.setEncoder(encoder);
        appender.setOutputStream(captured);
        appender.start();
        Logger drover = context.getLogger("io.drover");
        previousLevel = drover.getLevel();
        drover.setLevel(Level.INFO);
        drover.addAppender(appender);
    }

    @AfterEach
    void release() {
        Logger drover = ((LoggerContext) LoggerFactory.getILoggerFactory()).getLogger("io.drover");
        drover.detachAppender(appender);
        drover.setLevel(previousLevel);
        appender.stop();
    }

    @Test
    void everyLineAboutAnAllocationOrTaskNamesIt() throws Exception {
        Path plugins = Files.createDirectories(tmp.resolve("plugins"));
        Files.setPosixFilePermissions(plugins, PosixFilePermissions.fromString("rwx------"));
        try (var jars = Files.list(Path.of(System.getProperty("drover.test.plugins")))) {
            for (Path jar : (Iterable<Path>) jars::iterator) {
                Files.copy(jar, plugins.resolve(jar.getFileName()));
            }
        }
        AgentConfig config = new AgentConfig(tmp.resolve("data"), plugins, "INFO", "127.0.0.1", 0,
                ClientConfig.defaults(), Map.of(), null);
        Job job = JobFileParser.parse("logs.hcl", """
                job "logs" {
                  type = "batch"
                  group "g" {
                    count = 4
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    task "web" {
                      driver = "mock"
                      config { run_for = "20ms" }
                    }
                    task "broken" {
                      driver = "mock"
                      config { start_error = "no such image" }
                    }
                  }
                }
                """.getBytes(StandardCharsets.UTF_8));
        List<AllocationState> done;
        try (Agent agent = Agent.start(config, null)) {
            List<AllocationState> placed = agent.jobs().register(job).placed();
            for (AllocationState a : placed) {
                agent.engine().terminal(a.id()).get(30, TimeUnit.SECONDS);
            }
            done = placed;
        }
        appender.stop(); // flushes
        List<String> lines = captured.toString(StandardCharsets.UTF_8).lines().toList();
        List<String> ids = done.stream().map(AllocationState::id).toList();

        for (String id : ids) {
            for (String task : List.of("web", "broken")) {
                assertThat(lines).as("task events of %s/%s", id, task)
                        .anyMatch(l -> l.contains(" alloc_id=" + id + " task=" + task + ": Task event: type=Received"));
            }
            assertThat(lines).anyMatch(l -> l.contains(" alloc_id=" + id + " task=web: Task event: type=Terminated"));
            assertThat(lines).anyMatch(l -> l.contains(" alloc_id=" + id + " task=broken: Task event: "
                    + "type=Driver Failure msg=\"no such image\""));
            assertThat(lines).anyMatch(l -> l.contains(" alloc_id=" + id + " task=broken: Task event: "
                    + "type=Not Restarting msg=\"Policy allows no restarts\" failed=true"));
        }
        for (String line : lines) {
            if (line.contains("Task event: ")) {
                assertThat(line).as("a task line").containsPattern(ALLOC_ID.pattern() + " task=(web|broken): ");
            }
            Matcher mdc = ALLOC_ID.matcher(line);
            List<String> mentioned = UUID.matcher(line.substring(mdc.find() ? mdc.end() : 0)).results()
                    .map(r -> r.group()).distinct().toList();
            if (mentioned.size() == 1 && ids.contains(mentioned.get(0))) {
                assertThat(line).as("a line about one allocation names it in alloc_id")
                        .contains(" alloc_id=" + mentioned.get(0));
            }
            mdc.reset();
            if (mdc.find()) {
                String id = mdc.group(1);
                assertThat(ids).as("alloc_id of: " + line).contains(id);
                assertThat(mentioned).as("no other allocation's id on a line attributed to %s: %s", id, line)
                        .allMatch(id::equals);
            }
        }
    }
}
