package io.drover.core.template;

import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;

/** consul-template's {@code timestamp "layout"}: Go reference-time layouts (2006-01-02 15:04:05 ...), or "unix". */
final class GoTime {
    private GoTime() {}

    static String format(Instant now, String layout) {
        if (layout.equals("unix")) {
            return String.valueOf(now.getEpochSecond());
        }
        String[][] map = {{"2006", "yyyy"}, {"January", "MMMM"}, {"Jan", "MMM"}, {"Monday", "EEEE"}, {"Mon", "EEE"},
            {"01", "MM"}, {"02", "dd"}, {"15", "HH"}, {"03", "hh"}, {"04", "mm"}, {"05", "ss"}, {"06", "yy"},
            {"PM", "a"}, {"Z07:00", "XXX"}, {"-0700", "xx"}, {"MST", "z"}, {".000", ".SSS"}};
        StringBuilder pattern = new StringBuilder();
        int i = 0;
        outer:
        while (i < layout.length()) {
            for (String[] m : map) {
                if (layout.startsWith(m[0], i)) {
                    pattern.append(m[1]);
                    i += m[0].length();
                    continue outer;
                }
            }
            char c = layout.charAt(i++);
            if (Character.isLetter(c)) {
                pattern.append('\'').append(c).append('\'');
            } else if (c == '\'') {
                pattern.append("''");
            } else {
                pattern.append(c);
            }
        }
        return DateTimeFormatter.ofPattern(pattern.toString()).format(now.atZone(ZoneOffset.UTC));
    }
}
