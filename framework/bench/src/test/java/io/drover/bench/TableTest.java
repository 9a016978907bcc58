package io.drover.bench;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

class TableTest {
    @Test
    void figuresAgainstAnUpperAimAreJudged() {
        assertThat(Figure.atMost("b", "m", 50, "ms", "", 50).verdict()).isEqualTo(Verdict.MET);
        assertThat(Figure.atMost("b", "m", 50.1, "ms", "", 50).verdict()).isEqualTo(Verdict.MISSED);
        assertThat(Figure.atLeast("b", "m", 19_999, "events/s", "", 20_000).verdict()).isEqualTo(Verdict.MISSED);
        assertThat(Figure.atLeast("b", "m", 20_000, "events/s", "", 20_000).aim()).isEqualTo(">= 20,000 events/s");
    }

    @Test
    void tableAlignsColumnsAndShowsFailures() {
        String text = Table.render(List.of(
                Figure.atMost("escalation", "SIGKILL lateness p99", 12.345, "ms", "", 50),
                Figure.info("launch", "ratio", 0.93, "x", "ProcessBuilder median 1.75 ms"),
                Figure.error("store", "IOException: disk full")));
        List<String> lines = text.lines().toList();
        assertThat(lines).hasSize(4);
        assertThat(lines.get(0)).startsWith("bench       metric");
        assertThat(lines.get(1)).contains("12.3 ms").contains("<= 50 ms").endsWith("met");
        assertThat(lines.get(2)).contains("0.93 x").contains("ProcessBuilder median 1.75 ms").endsWith("info");
        assertThat(lines.get(3)).contains("(failed)").contains("IOException: disk full").endsWith("error");
        // the value column is right-aligned: every value ends at the same column
        int end = lines.get(1).indexOf("12.3 ms") + "12.3 ms".length();
        assertThat(lines.get(2).indexOf("0.93 x") + "0.93 x".length()).isEqualTo(end);
    }

    @Test
    void numbersReadLikePeopleWriteThem() {
        assertThat(Table.number(23_456.7)).isEqualTo("23,457");
        assertThat(Table.number(512)).isEqualTo("512");
        assertThat(Table.number(0.8512)).isEqualTo("0.85");
        assertThat(Table.number(121.04)).isEqualTo("121.0");
    }

    @Test
    void anUnknownBenchIsRefusedBeforeAnythingRuns() {
        BenchEnv env = new BenchEnv(true, Path.of("nowhere"), null, Path.of("nowhere"),
                new PrintStream(PrintStream.nullOutputStream()), BenchParams.none());
        assertThatThrownBy(() -> BenchSuite.run(env, Set.of("launch", "warp")))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("unknown bench 'warp'").hasMessageContaining("launch, lifecycle");
    }
}
