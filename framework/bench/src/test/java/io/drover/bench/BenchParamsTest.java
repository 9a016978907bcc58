package io.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import org.junit.jupiter.api.Test;

class BenchParamsTest {
    private static BenchEnv env(BenchParams params) {
        return new BenchEnv(true, Path.of("nowhere"), null, Path.of("nowhere"),
                new PrintStream(PrintStream.nullOutputStream()), params);
    }

    @Test
    void aSettingReachesItsBenchOnlyAndDefaultsStayOtherwise() {
        BenchParams p = BenchParams.parse(List.of("gc.parallel=4", "max_runtime.store=true"), BenchSuite.all());
        BenchEnv env = env(p);
        Bench gc = BenchSuite.all().get("gc");
        Bench maxRuntime = BenchSuite.all().get("max_runtime");
        assertThat(env.count(gc, "parallel", 2)).isEqualTo(4);
        assertThat(env.count(gc, "allocations", 1_000)).isEqualTo(1_000);
        assertThat(env.flag(maxRuntime, "store", false)).isTrue();
        assertThat(env.flag(gc, "store", true)).isTrue();
    }

    @Test
    void everyDeclaredParameterIsAccepted() {
        for (Bench b : BenchSuite.all().values()) {
            for (Param p : b.params()) {
                String value = p.kind() == Param.Kind.FLAG ? "false" : "3";
                assertThat(BenchParams.parse(List.of(b.name() + "." + p.key() + "=" + value), BenchSuite.all()))
                        .isNotNull();
            }
        }
    }

    @Test
    void badSettingsAreRefusedWithOneLineNamingThem() {
        assertThatThrownBy(() -> BenchParams.parse(List.of("warp.speed=9"), BenchSuite.all()))
                .hasMessageStartingWith("--param warp.speed=9: unknown bench 'warp'");
        assertThatThrownBy(() -> BenchParams.parse(List.of("gc.paralel=4"), BenchSuite.all()))
                .hasMessage("--param gc.paralel=4: bench gc has no parameter 'paralel' (known: allocations, "
                        + "parallel, store, sweep)");
        assertThatThrownBy(() -> BenchParams.parse(List.of("launch.runs=4"), BenchSuite.all()))
                .hasMessageContaining("bench launch has no parameter 'runs' (it has none)");
        assertThatThrownBy(() -> BenchParams.parse(List.of("gc.parallel=0"), BenchSuite.all()))
                .hasMessage("--param gc.parallel=0: '0' is not a whole number >= 1 (gc_parallel_destroys (default 2))");
        assertThatThrownBy(() -> BenchParams.parse(List.of("gc.store=yes"), BenchSuite.all()))
                .hasMessageContaining("'yes' is not true or false");
        assertThatThrownBy(() -> BenchParams.parse(List.of("gc=4"), BenchSuite.all()))
                .hasMessage("--param gc=4: expected BENCH.KEY=VALUE, e.g. gc.parallel=4");
        assertThatThrownBy(() -> BenchParams.parse(List.of("gc.parallel"), BenchSuite.all()))
                .hasMessageContaining("expected BENCH.KEY=VALUE");
    }
}
