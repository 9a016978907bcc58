package io.drover.core.spec.cron;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.util.Optional;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * Nomad's cron syntax (hashicorp/cronexpr): each row is an expression, a start and the next time it gives. Every
 * row of {@code nextTime} and {@code timeZones} was checked against hashicorp/cronexpr v1.1.3 itself (the version
 * Nomad's api module requires) on 2026-12-02; where this parser refuses what cronexpr accepts (a range that ends
 * before it starts, more than 7 fields: cronexpr never launches or ignores the rest), it says so.
 */
class CronExpressionTest {
    private static final ZoneId UTC = ZoneId.of("UTC");

    @ParameterizedTest(name = "{0} after {1} is {2}")
    @CsvSource(delimiter = '|', textBlock = """
            */15 * * * *            | 2026-12-02T03:07:00Z | 2026-12-02T03:15:00Z
            */15 * * * *            | 2026-12-02T03:15:00Z | 2026-12-02T03:30:00Z
            0 0 * * *               | 2026-12-02T03:07:00Z | 2026-12-03T00:00:00Z
            @daily                  | 2026-12-02T03:07:00Z | 2026-12-03T00:00:00Z
            ? 0 * * *               | 2026-12-02T00:00:00Z | 2026-12-02T00:01:00Z
            @hourly                 | 2026-12-02T03:07:00Z | 2026-12-02T04:00:00Z
            @weekly                 | 2026-12-02T03:07:00Z | 2026-12-06T00:00:00Z
            @monthly                | 2026-12-02T03:07:00Z | 2027-01-01T00:00:00Z
            @yearly                 | 2026-12-02T03:07:00Z | 2027-01-01T00:00:00Z
            @annually               | 2026-12-02T03:07:00Z | 2027-01-01T00:00:00Z
            30 9 * * MON-FRI        | 2026-12-04T10:00:00Z | 2026-12-07T09:30:00Z
            30 9 * * 1-5            | 2026-12-04T09:29:59Z | 2026-12-04T09:30:00Z
            0 12 * JAN,JUL *        | 2026-12-02T00:00:00Z | 2027-01-01T12:00:00Z
            0 0 1,15 * *            | 2026-12-02T00:00:00Z | 2026-12-15T00:00:00Z
            0 0 L * *               | 2026-12-02T00:00:00Z | 2026-12-31T00:00:00Z
            0 0 L 2 *               | 2027-01-01T00:00:00Z | 2027-02-28T00:00:00Z
            0 0 LW * *              | 2027-01-01T00:00:00Z | 2027-01-29T00:00:00Z
            0 0 15W * *             | 2026-11-01T00:00:00Z | 2026-11-16T00:00:00Z
            0 0 1W * *              | 2026-07-02T00:00:00Z | 2026-08-03T00:00:00Z
            0 0 * * 5L              | 2026-12-02T00:00:00Z | 2026-12-25T00:00:00Z
            0 0 * * 1#2             | 2026-12-02T00:00:00Z | 2026-12-14T00:00:00Z
            0 0 * * 0               | 2026-12-02T00:00:00Z | 2026-12-06T00:00:00Z
            0 0 * * 7               | 2026-12-02T00:00:00Z | 2026-12-06T00:00:00Z
            0 0 13 * 5              | 2026-12-02T00:00:00Z | 2026-12-04T00:00:00Z
            0 0 ? * *               | 2026-12-02T00:00:00Z | 2026-12-03T00:00:00Z
            10-20/5 3 * * *         | 2026-12-02T03:11:00Z | 2026-12-02T03:15:00Z
            5/20 * * * *            | 2026-12-02T03:46:00Z | 2026-12-02T04:05:00Z
            0 0 29 2 *              | 2026-12-02T00:00:00Z | 2028-02-29T00:00:00Z
            0 0 0 1 1 * 2030        | 2026-12-02T00:00:00Z | 2030-01-01T00:00:00Z
            0 0 1 1 * 2030          | 2026-12-02T00:00:00Z | 2030-01-01T00:00:00Z
            */10 * * * * * *        | 2026-12-02T00:00:05Z | 2026-12-02T00:00:10Z
            0 0 * * * * 2020        | 2026-12-02T00:00:00Z | NONE
            """)
    void nextTime(String expr, String from, String expected) throws CronException {
        Optional<Instant> next = CronExpression.parse(expr).next(Instant.parse(from), UTC);
        assertThat(next.map(Instant::toString).orElse("NONE")).isEqualTo(expected);
    }

    @ParameterizedTest(name = "{0} in {1}")
    @CsvSource(delimiter = '|', textBlock = """
            0 9 * * *    | America/New_York | 2026-12-02T00:00:00Z | 2026-12-02T14:00:00Z
            0 9 * * *    | Europe/Berlin    | 2026-07-02T00:00:00Z | 2026-07-02T07:00:00Z
            30 2 * * *   | Europe/Berlin    | 2026-03-28T12:00:00Z | 2026-03-30T00:30:00Z
            30 2 * * *   | Europe/Berlin    | 2026-10-24T12:00:00Z | 2026-10-25T00:30:00Z
            """)
    void timeZones(String expr, String zone, String from, String expected) throws CronException {
        assertThat(CronExpression.parse(expr).next(Instant.parse(from), ZoneId.of(zone)))
                .contains(Instant.parse(expected));
    }

    @ParameterizedTest(name = "[{0}]")
    @CsvSource(delimiter = '|', textBlock = """
            ''                 | expected 5 to 7 fields, found 0
            * * * *            | expected 5 to 7 fields, found 4
            * * * * * * * *    | expected 5 to 7 fields, found 8
            60 * * * *         | syntax error in minute field: '60' (out of range 0-59)
            * 24 * * *         | syntax error in hour field: '24' (out of range 0-23)
            * * 0 * *          | syntax error in day-of-month field: '0' (out of range 1-31)
            * * * 13 *         | syntax error in month field: '13' (out of range 1-12)
            * * * FOO *        | syntax error in month field: 'FOO' (not a number or a name (JAN...))
            * * * * 8          | syntax error in day-of-week field: '8' (out of range 0-7)
            */0 * * * *        | syntax error in minute field: '*/0' (the step must be at least 1)
            5-1 * * * *        | syntax error in minute field: '5-1' (the range ends before it starts)
            * * * * 1#6        | syntax error in day-of-week field: '1#6' (the occurrence after '#' must be 1-5)
            @often             | unknown predefined expression '@often' (allowed: @annually, @daily, @hourly, @monthly, @weekly, @yearly)
            @midnight          | unknown predefined expression '@midnight' (allowed: @annually, @daily, @hourly, @monthly, @weekly, @yearly)
            """)
    void badExpressionsNameTheirField(String expr, String message) {
        assertThatThrownBy(() -> CronExpression.parse(expr)).isInstanceOf(CronException.class).hasMessage(message);
    }
}
