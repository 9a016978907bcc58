package io.drover.agent.http;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.Map;
import java.util.Set;
import java.util.function.Function;
import java.util.function.Predicate;
import org.junit.jupiter.api.Test;

/** The filter subset's grammar and meaning, through the {@code /v1/} routes' package-private parser. */
class FilterExprTest {
    static final Set<String> FIELDS = Set.of("ID", "JobID", "ClientStatus");

    static boolean eval(String expr, Map<String, String> item) throws Exception {
        Predicate<Function<String, String>> p = FilterExpr.parse(expr, FIELDS);
        return p.test(item::get);
    }

    @Test
    void comparisonsAndLogic() throws Exception {
        Map<String, String> a = Map.of("ID", "a1", "JobID", "web", "ClientStatus", "running");
        assertThat(eval("ClientStatus == \"running\"", a)).isTrue();
        assertThat(eval("ClientStatus != \"running\"", a)).isFalse();
        assertThat(eval("JobID contains \"e\"", a)).isTrue();
        assertThat(eval("JobID contains \"x\" or ID == \"a1\"", a)).isTrue();
        assertThat(eval("JobID contains \"x\" or ID == \"a1\" and ClientStatus == \"dead\"", a))
                .as("and binds tighter").isFalse();
        assertThat(eval("(JobID contains \"x\" or ID == \"a1\") and not ClientStatus == \"dead\"", a)).isTrue();
        assertThat(eval("JobID == \"we\\\"b\"", Map.of("JobID", "we\"b"))).as("escaped quote").isTrue();
        assertThat(eval("ClientStatus==running", a)).as("bare word, no spaces").isTrue();
    }

    @Test
    void problemsAreOneLineNamingWhatIsWrong() {
        assertThatThrownBy(() -> eval("Foo == \"x\"", Map.of())).hasMessageContaining("unknown selector \"Foo\"")
                .hasMessageContaining("ClientStatus, ID, JobID");
        assertThatThrownBy(() -> eval("ID = \"x\"", Map.of())).hasMessageContaining("expected == or !=");
        assertThatThrownBy(() -> eval("ID == \"x", Map.of())).hasMessageContaining("unterminated string");
        assertThatThrownBy(() -> eval("(ID == \"x\"", Map.of())).hasMessageContaining("expected )");
        assertThatThrownBy(() -> eval("ID ==", Map.of())).hasMessageContaining("expected a value at the end");
        assertThatThrownBy(() -> eval("ID matches \"x\"", Map.of())).hasMessageContaining("found \"matches\"");
        assertThatThrownBy(() -> eval("ID == \"x\" ID", Map.of())).hasMessageContaining("unexpected \"ID\"");
    }
}
