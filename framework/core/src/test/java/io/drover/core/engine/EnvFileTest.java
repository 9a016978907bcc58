package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.template.TemplateException;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * An {@code env = true} template's lines read as Nomad's template hook reads them (hashicorp/go-envparse): quotes
 * anywhere in a value, the four escapes inside double quotes, a trailing comment. The corpus job
 * angrycub/complex_meta/template_env.nomad writes {@code RULES={{ executeTemplate "RULES" | toJSON }}}, a JSON
 * string in double quotes, and runs {@code echo $RULES | jq .}: under Nomad the task sees the JSON text itself.
 */
class EnvFileTest {
    @Test
    void aDoubleQuotedValueHasItsEscapesRead() throws Exception {
        Map<String, String> env = EnvFile.parse("RULES=\"[\\n  {\\\"enabled\\\": true, \\\"p\\\": \\\"a\\\\\\\\b\\\"}\\n]\"\n",
                "rules.env");
        assertThat(env).containsExactly(Map.entry("RULES", "[\n  {\"enabled\": true, \"p\": \"a\\\\b\"}\n]"));
        assertThat(EnvFile.parse("T=\"a\\tb\"", "x")).containsEntry("T", "a\tb");
    }

    @Test
    void quotesMayStandAnywhereAndACommentEndsAnUnquotedValue() throws Exception {
        Map<String, String> env = EnvFile.parse("""
                # a comment line
                export A = plain value   # a comment
                B='single "kept" \\n as is'
                C="x"y'z'
                D=http://h/p#frag
                E="# not a comment"
                F=
                G = " padded "
                """, "x.env");
        assertThat(env).containsExactly(Map.entry("A", "plain value"), Map.entry("B", "single \"kept\" \\n as is"),
                Map.entry("C", "xyz"), Map.entry("D", "http://h/p"), Map.entry("E", "# not a comment"),
                Map.entry("F", ""), Map.entry("G", " padded "));
    }

    @Test
    void aBrokenValueIsAnErrorNamingItsLine() {
        assertThatThrownBy(() -> EnvFile.parse("A=1\nB=\"open\n", "x.env")).isInstanceOf(TemplateException.class)
                .hasMessage("x.env:2: an env template value has an unmatched \"");
        assertThatThrownBy(() -> EnvFile.parse("A=\"bad \\x escape\"", "x.env"))
                .hasMessageStartingWith("x.env:1: an env template value has the escape \\x");
        assertThatThrownBy(() -> EnvFile.parse("A=a\u0001b", "x.env"))
                .hasMessageStartingWith("x.env:1: an env template value holds a control character (0x01)");
        assertThatThrownBy(() -> EnvFile.parse("no separator", "x.env"))
                .hasMessageContaining("x.env:1: an env template line must be KEY=value");
    }
}
