package io.drover.cli.format;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.ObjectMapper;
import org.junit.jupiter.api.Test;

class TerminalTextTest {
    /** Sets the window title, clears the screen, then fakes a line of output. */
    private static final String ATTACK = "x\u001b]0;pwned\u0007\u001b[2J\r\nClient Status = complete";

    @Test
    void controlCharactersBecomeVisibleEscapesAndNoLineCanBeFaked() {
        String shown = TerminalText.escape(ATTACK);

        assertThat(shown).isEqualTo("x\\x1b]0;pwned\\x07\\x1b[2J\\r\\nClient Status = complete");
        assertThat(shown.chars().noneMatch(c -> c < 0x20 || c == 0x7f)).isTrue();
    }

    @Test
    void delC1BidiSeparatorsAndLoneSurrogatesAreEscapedTabToo() {
        assertThat(TerminalText.escape("a\u007fb\u009b2Jc\u0085")).isEqualTo("a\\x7fb\\u009b2Jc\\u0085");
        assertThat(TerminalText.escape("evil\u202egnp.exe\u2066\u2069\u200f\u061c"))
                .isEqualTo("evil\\u202egnp.exe\\u2066\\u2069\\u200f\\u061c");
        assertThat(TerminalText.escape("l\u2028p\u2029")).isEqualTo("l\\u2028p\\u2029");
        assertThat(TerminalText.escape("\ud800x\udc00")).isEqualTo("\\ud800x\\udc00");
        assertThat(TerminalText.escape("a\tb")).isEqualTo("a\\tb");
    }

    @Test
    void ordinaryTextIsKeptAsItIs() {
        String text = "web-1 café 日本 😀 C:\\path \"quoted\" ${NOMAD_TASK_NAME}";
        assertThat(TerminalText.escape(text)).isSameAs(text);
        assertThat(TerminalText.isSafe(text)).isTrue();
        assertThat(TerminalText.escape(null)).isEmpty();
        assertThat(TerminalText.escape(TerminalText.escape(ATTACK))).isEqualTo(TerminalText.escape(ATTACK));
    }

    @Test
    void jsonKeepsItsValueAndLosesEveryCharacterATerminalActsOn() throws Exception {
        ObjectMapper json = new ObjectMapper();
        String value = "m\u001b[2J\u007f\u009b\u202e\u2028end";
        String raw = json.writerWithDefaultPrettyPrinter().writeValueAsString(java.util.Map.of("Msg", value));
        assertThat(raw).as("Jackson writes DEL, C1, bidi and U+2028 raw").contains("\u007f", "\u009b", "\u202e");

        String safe = TerminalText.escapeJson(raw);

        assertThat(safe.chars().noneMatch(c -> (c < 0x20 && c != '\n' && c != ' ') || c == 0x7f
                || (c >= 0x80 && c <= 0x9f) || c == 0x202e || c == 0x2028)).as(safe).isTrue();
        assertThat(json.readTree(safe).path("Msg").asText()).isEqualTo(value);
        assertThat(safe).contains("\n  \"Msg\"");
    }
}
