package io.drover.cli.format;

/**
 * Makes text that a job, a task or a driver controls safe to print to a terminal: characters a terminal acts on,
 * or that reorder or break what the reader sees, become visible escapes, so a job name or an event message
 * cannot set the window title, clear the screen, move the cursor or fake a line of output. Pure, thread-safe.
 *
 * <p>Escaped by {@link #escape}: C0 controls (U+0000–U+001F, ESC among them; {@code \n}, {@code \r} and
 * {@code \t} as those two-character forms, the others as {@code \x1b}), DEL ({@code \x7f}), C1 controls
 * (U+0080–U+009F, e.g. {@code \u009b}, which some terminals take as CSI), the Unicode bidirectional embeddings,
 * overrides and isolates (U+202A–U+202E, U+2066–U+2069) and marks (U+200E, U+200F, U+061C), the line and
 * paragraph separators (U+2028, U+2029) and lone surrogates, as {@code \\uXXXX}. Everything else, backslashes
 * and any other Unicode text included, is kept as it is: a literal {@code \x1b} in a name therefore reads like
 * an escaped ESC, but it does nothing.
 */
public final class TerminalText {
    private static final char[] HEX = "0123456789abcdef".toCharArray();

    private TerminalText() {}

    /** {@code text} with every unsafe character replaced by its visible escape; null becomes "". */
    public static String escape(String text) {
        if (text == null) {
            return "";
        }
        int first = firstUnsafe(text);
        if (first < 0) {
            return text;
        }
        StringBuilder sb = new StringBuilder(text.length() + 16).append(text, 0, first);
        for (int i = first; i < text.length(); i++) {
            char c = text.charAt(i);
            if (!unsafe(text, i)) {
                sb.append(c);
                if (Character.isHighSurrogate(c)) {
                    sb.append(text.charAt(++i)); // a valid pair: its low half follows
                }
                continue;
            }
            switch (c) {
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x80) {
                        sb.append("\\x").append(HEX[c >> 4]).append(HEX[c & 0xf]);
                    } else {
                        unicode(sb, c);
                    }
                }
            }
        }
        return sb.toString();
    }

    /**
     * JSON text with every unsafe character outside the JSON escapes replaced by its {@code \\uXXXX} escape.
     * Outside strings JSON holds only ASCII punctuation, letters and whitespace, so the characters replaced can
     * only sit inside strings, where {@code \\uXXXX} means the same character: the result is the same JSON
     * value (a parser reads the same strings), safe to print. JSON's own whitespace (space, {@code \n},
     * {@code \r}, {@code \t}) is kept. Jackson already escapes C0 controls; this adds DEL, C1, bidi controls and
     * U+2028/U+2029, which it writes raw.
     */
    public static String escapeJson(String json) {
        if (json == null) {
            return "";
        }
        StringBuilder sb = null;
        for (int i = 0; i < json.length(); i++) {
            char c = json.charAt(i);
            boolean replace = (c != '\n' && c != '\r' && c != '\t') && unsafe(json, i);
            if (replace && sb == null) {
                sb = new StringBuilder(json.length() + 16).append(json, 0, i);
            }
            if (replace) {
                unicode(sb, c);
            } else if (sb != null) {
                sb.append(c);
            }
        }
        return sb == null ? json : sb.toString();
    }

    /** Whether {@code text} would print as it is. */
    public static boolean isSafe(String text) {
        return text == null || firstUnsafe(text) < 0;
    }

    private static int firstUnsafe(String text) {
        for (int i = 0; i < text.length(); i++) {
            if (unsafe(text, i)) {
                return i;
            }
            if (Character.isHighSurrogate(text.charAt(i))) {
                i++; // a valid pair (unsafe() said so): skip its low half
            }
        }
        return -1;
    }

    /** Whether the char at {@code i} must be escaped; a high surrogate is safe only when a low one follows. */
    private static boolean unsafe(String text, int i) {
        char c = text.charAt(i);
        if (c < 0x20 || c == 0x7f || (c >= 0x80 && c <= 0x9f)) {
            return true;
        }
        if ((c >= 0x202a && c <= 0x202e) || (c >= 0x2066 && c <= 0x2069) || c == 0x200e || c == 0x200f
                || c == 0x061c || c == 0x2028 || c == 0x2029) {
            return true;
        }
        if (Character.isHighSurrogate(c)) {
            return i + 1 >= text.length() || !Character.isLowSurrogate(text.charAt(i + 1));
        }
        if (Character.isLowSurrogate(c)) {
            return i == 0 || !Character.isHighSurrogate(text.charAt(i - 1));
        }
        return false;
    }

    private static void unicode(StringBuilder sb, char c) {
        sb.append("\\u").append(HEX[(c >> 12) & 0xf]).append(HEX[(c >> 8) & 0xf]).append(HEX[(c >> 4) & 0xf])
                .append(HEX[c & 0xf]);
    }
}
