package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import ch.qos.logback.classic.spi.ILoggingEvent;
import ch.qos.logback.core.AppenderBase;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.slf4j.LoggerFactory;
import org.slf4j.MDC;

/** The MDC keys of log lines are set per action and never leak to another allocation's action or the pool. */
class SerialExecutorMdcTest {

    @Test
    void eachActionSeesItsOwnAllocationAndThePoolThreadIsLeftClean() throws Exception {
        ExecutorService pool = Executors.newSingleThreadExecutor(); // one thread: every action shares it
        try {
            List<String> seen = new ArrayList<>();
            SerialExecutor a = new SerialExecutor(pool, "alloc-a");
            SerialExecutor b = new SerialExecutor(pool, "alloc-b");
            for (int i = 0; i < 3; i++) {
                a.execute(() -> seen.add("a:" + MDC.get("alloc_id") + ":" + MDC.get("task")));
                b.execute(() -> seen.add("b:" + MDC.get("alloc_id") + ":" + MDC.get("task")));
                pool.execute(() -> seen.add("pool:" + MDC.get("alloc_id") + ":" + MDC.get("task")));
            }
            pool.submit(() -> {}).get(5, TimeUnit.SECONDS);
            assertThat(seen).filteredOn(s -> s.startsWith("a:")).containsOnly("a:alloc-a:null");
            assertThat(seen).filteredOn(s -> s.startsWith("b:")).containsOnly("b:alloc-b:null");
            assertThat(seen).filteredOn(s -> s.startsWith("pool:")).hasSize(3).containsOnly("pool:null:null");
        } finally {
            pool.shutdownNow();
        }
    }

    @Test
    void aDrainOnACallerThreadRestoresWhatTheCallerHad() {
        MDC.put("alloc_id", "outer");
        try {
            List<String> seen = new ArrayList<>();
            new SerialExecutor(Runnable::run, "inner").execute(() -> seen.add(MDC.get("alloc_id")));
            assertThat(seen).containsExactly("inner");
            assertThat(MDC.get("alloc_id")).isEqualTo("outer");
        } finally {
            MDC.remove("alloc_id");
        }
    }

    @Test
    void taskLogSetsBothKeysForOneLineOnly() {
        ch.qos.logback.classic.Logger logger = (ch.qos.logback.classic.Logger) LoggerFactory.getLogger("mdc-test");
        List<String> seen = new ArrayList<>();
        AppenderBase<ILoggingEvent> appender = new AppenderBase<>() {
            @Override
            protected void append(ILoggingEvent e) {
                seen.add(e.getMDCPropertyMap().get("alloc_id") + "/" + e.getMDCPropertyMap().get("task") + " "
                        + e.getFormattedMessage());
            }
        };
        appender.setContext(logger.getLoggerContext());
        appender.start();
        logger.addAppender(appender);
        logger.setLevel(ch.qos.logback.classic.Level.INFO);
        MDC.put("alloc_id", "outer");
        try {
            new TaskLog(logger, "alloc-1", "web").info("Task event: {}", "x");
            assertThat(seen).containsExactly("alloc-1/web Task event: x");
            assertThat(MDC.get("alloc_id")).isEqualTo("outer");
            assertThat(MDC.get("task")).isNull();
        } finally {
            MDC.remove("alloc_id");
            logger.detachAppender(appender);
        }
    }
}
