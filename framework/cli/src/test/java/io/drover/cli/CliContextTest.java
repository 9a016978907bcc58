package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.cli.format.Times;
import java.time.ZoneId;
import java.time.ZoneOffset;
import java.util.TimeZone;
import org.junit.jupiter.api.Test;

class CliContextTest {
    private static final long NANOS = 1_764_645_738_755_000_000L; // 2025-12-02T03:22:18.755Z

    @Test
    void utcUnderAnyNameIsTheOffsetAndPrintsAsTheRegionWould() {
        for (String name : new String[] {"Etc/UTC", "UTC", "GMT", "Etc/GMT", "Zulu", "Etc/Universal"}) {
            ZoneId zone = CliContext.localZone(TimeZone.getTimeZone(name));
            assertThat(zone).as(name).isEqualTo(ZoneOffset.UTC);
            assertThat(Times.local(NANOS, zone)).as(name).isEqualTo(Times.local(NANOS, ZoneId.of(name)))
                    .isEqualTo("2025-12-02T03:22:18.755Z");
        }
    }

    @Test
    void aRegionKeepsItsRules() {
        ZoneId berlin = CliContext.localZone(TimeZone.getTimeZone("Europe/Berlin"));
        assertThat(berlin).isEqualTo(ZoneId.of("Europe/Berlin"));
        assertThat(Times.local(NANOS, berlin)).isEqualTo("2025-12-02T04:22:18.755+01:00");
        // summer time: the region's rules, not a fixed offset
        assertThat(Times.local(NANOS - 150L * 86_400 * 1_000_000_000L, berlin)).endsWith("+02:00");
    }

    @Test
    void theProcessContextsZoneIsTheDefaultReadOnFirstUse() {
        CliContext ctx = CliContext.of(System.out, System.err);
        assertThat(ctx.zone()).isEqualTo(CliContext.localZone(TimeZone.getDefault())).isSameAs(ctx.zone());
        assertThat(new CliContext(System.out, System.err, false, java.util.Map.of(), ZoneId.of("Europe/Berlin"))
                .zone()).isEqualTo(ZoneId.of("Europe/Berlin"));
    }
}
