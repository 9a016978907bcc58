package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.ArrayList;
import java.util.List;
import java.util.SplittableRandom;
import org.junit.jupiter.api.Test;

/** {@link Times} prints and parses as {@link DateTimeFormatter} and {@link Instant#parse} do, on every path. */
class TimesTest {
    private static final DateTimeFormatter JDK = DateTimeFormatter.ofPattern("uuuu-MM-dd'T'HH:mm:ss.SSSXXX");
    /** UTC; whole-hour, half-hour and 45-minute offsets, west and east; zones with seconds in old offsets (LMT). */
    private static final List<ZoneId> ZONES = List.of(ZoneOffset.UTC, ZoneId.of("Europe/Paris"),
            ZoneId.of("Asia/Kolkata"), ZoneId.of("America/St_Johns"), ZoneId.of("Australia/Eucla"),
            ZoneId.of("Pacific/Kiritimati"), ZoneId.of("Europe/Amsterdam"), ZoneId.of("America/New_York"),
            ZoneOffset.ofHoursMinutesSeconds(-3, -30, -15), ZoneOffset.ofHours(-12), ZoneOffset.ofHours(14));

    private static List<Instant> instants() {
        List<Instant> all = new ArrayList<>(List.of(Instant.EPOCH, Instant.ofEpochSecond(-1, 999_999_999),
                Instant.parse("0000-01-01T00:00:00Z"), Instant.parse("9999-12-31T23:59:59.999999999Z"),
                Instant.parse("-0001-12-31T23:59:59Z"), Instant.parse("+10000-01-01T00:00:00Z"),
                Instant.parse("1900-01-01T00:00:00Z"), Instant.parse("2024-02-29T12:00:00.5Z")));
        SplittableRandom r = new SplittableRandom(18);
        for (int i = 0; i < 20_000; i++) { // years ~1800-2200, any nanosecond
            all.add(Instant.ofEpochSecond(r.nextLong(-5_400_000_000L, 7_200_000_000L), r.nextInt(1_000_000_000)));
        }
        return all;
    }

    @Test
    void formatsAsTheJdkPattern() {
        for (Instant t : instants()) {
            for (ZoneId zone : ZONES) {
                assertThat(Times.format(t, zone)).as("%s in %s", t, zone).isEqualTo(JDK.format(t.atZone(zone)));
            }
            assertThat(Times.utc(t)).isEqualTo(JDK.format(t.atZone(ZoneOffset.UTC)));
        }
        assertThat(Times.utc(null)).isEqualTo("N/A");
    }

    @Test
    void parsesAsInstantParse() {
        SplittableRandom r = new SplittableRandom(12);
        for (Instant t : instants()) {
            String iso = DateTimeFormatter.ISO_INSTANT.format(t);
            assertThat(Times.parse(iso)).as(iso).isEqualTo(Instant.parse(iso));
            // the fraction with 0-9 digits (Jackson writes what it has; the agent's API writes nanoseconds)
            Instant whole = Instant.ofEpochSecond(t.getEpochSecond());
            String base = DateTimeFormatter.ISO_INSTANT.format(whole);
            String digits = String.format("%09d", t.getNano()).substring(0, r.nextInt(10));
            String text = base.substring(0, base.length() - 1) + (digits.isEmpty() ? "" : "." + digits) + "Z";
            assertThat(Times.parse(text)).as(text).isEqualTo(Instant.parse(text));
        }
    }

    /** Odd texts (case, offsets, leap second, 24:00, bad fields): the JDK's instant, or its exception. */
    @Test
    void anOddOrBadTextGetsInstantParsesAnswer() {
        for (String odd : List.of("2026-12-02t16:20:27z", "2026-12-02T16:20:27+01:00", "2026-12-02T16:20:27.Z",
                "+12026-12-02T16:20:27Z", "2016-12-31T23:59:60Z", "2026-12-02T16:20:27.1234567891Z", "",
                "2026-02-30T00:00:00Z", "2026-13-01T00:00:00Z", "2026-12-02T24:00:00Z", "2026-12-02T16:61:00Z",
                "2026-12-02 16:20:27Z", "2026-12-02T16:20:2xZ", "yesterday", "2026-12-02T16:20:27.12a4Z",
                "2026-00-10T00:00:00Z", "2026-01-00T00:00:00Z", "2026-12-02T16:20:27.000000000Z")) {
            Instant jdk;
            try {
                jdk = Instant.parse(odd);
            } catch (DateTimeParseException e) {
                assertThatThrownBy(() -> Times.parse(odd)).as(odd).isInstanceOf(DateTimeParseException.class)
                        .hasMessage(e.getMessage());
                continue;
            }
            assertThat(Times.parse(odd)).as(odd).isEqualTo(jdk);
        }
    }
}
