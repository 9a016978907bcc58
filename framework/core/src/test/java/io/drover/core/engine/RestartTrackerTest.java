package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.engine.RestartTracker.Decision;
import io.drover.core.engine.RestartTracker.Outcome;
import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

class RestartTrackerTest {
    private static final Instant T0 = Instant.parse("2026-01-01T00:00:00Z");
    private static final RestartPolicy TWO_PER_MINUTE_FAIL =
            new RestartPolicy(2, Duration.ofMinutes(1), Duration.ofSeconds(1), RestartMode.FAIL);
    private static final RestartPolicy TWO_PER_MINUTE_DELAY =
            new RestartPolicy(2, Duration.ofMinutes(1), Duration.ofSeconds(1), RestartMode.DELAY);
    private static final RestartPolicy NONE =
            new RestartPolicy(0, Duration.ofMinutes(1), Duration.ofSeconds(1), RestartMode.FAIL);

    record Row(String name, RestartPolicy policy, boolean service, List<Outcome> outcomes, List<Long> atSeconds,
            List<String> expected) {}

    static Stream<Arguments> table() {
        return Stream.of(
                new Row("batch success is done", TWO_PER_MINUTE_FAIL, false, List.of(Outcome.SUCCESS), List.of(0L),
                        List.of("done")),
                new Row("service success restarts", TWO_PER_MINUTE_FAIL, true, List.of(Outcome.SUCCESS),
                        List.of(0L), List.of("restart 1s Restart within policy")),
                new Row("failures within attempts restart, then fail", TWO_PER_MINUTE_FAIL, false,
                        List.of(Outcome.FAILURE, Outcome.FAILURE, Outcome.FAILURE), List.of(0L, 2L, 4L),
                        List.of("restart 1s Restart within policy", "restart 1s Restart within policy",
                                "failed Exceeded allowed attempts 2 in interval 1m0s and mode is \"fail\"")),
                new Row("a new interval resets the count", TWO_PER_MINUTE_FAIL, false,
                        List.of(Outcome.FAILURE, Outcome.FAILURE, Outcome.FAILURE), List.of(0L, 2L, 61L),
                        List.of("restart 1s Restart within policy", "restart 1s Restart within policy",
                                "restart 1s Restart within policy")),
                new Row("delay mode waits for the interval's end", TWO_PER_MINUTE_DELAY, false,
                        List.of(Outcome.FAILURE, Outcome.FAILURE, Outcome.FAILURE), List.of(0L, 2L, 4L),
                        List.of("restart 1s Restart within policy", "restart 1s Restart within policy",
                                "restart 56s Exceeded allowed attempts, applying a delay")),
                new Row("no attempts: failure fails", NONE, false, List.of(Outcome.FAILURE), List.of(0L),
                        List.of("failed Policy allows no restarts")),
                new Row("no attempts: success is done", NONE, true, List.of(Outcome.SUCCESS), List.of(0L),
                        List.of("done")),
                new Row("unrecoverable start error fails at once", TWO_PER_MINUTE_FAIL, false,
                        List.of(Outcome.START_ERROR_UNRECOVERABLE), List.of(0L),
                        List.of("failed Error was unrecoverable")),
                new Row("recoverable start error restarts", TWO_PER_MINUTE_FAIL, false,
                        List.of(Outcome.START_ERROR_RECOVERABLE), List.of(0L),
                        List.of("restart 1s Restart within policy")))
                .map(r -> Arguments.of(r.name(), r));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("table")
    void decidesLikeNomad(String name, Row row) {
        RestartTracker tracker = new RestartTracker(row.policy(), row.service());
        List<String> actual = new ArrayList<>();
        for (int i = 0; i < row.outcomes().size(); i++) {
            Decision d = tracker.decide(row.outcomes().get(i), T0.plusSeconds(row.atSeconds().get(i)));
            actual.add(describe(d));
        }
        assertThat(actual).containsExactlyElementsOf(row.expected());
    }

    private static String describe(Decision d) {
        if (d.restart()) {
            return "restart " + io.drover.core.event.GoDuration.format(d.delay()) + " " + d.reason();
        }
        return d.failed() ? "failed " + d.reason() : "done";
    }
}
