package io.drover.core.spec.parse.hcl;

import java.util.List;

/** The text of an indented heredoc ({@code <<-EOF}): the lines with their common leading whitespace removed. */
final class HeredocIndent {
    private HeredocIndent() {}

    /** @return the lines, each ending with a newline, minus the smallest indentation of the non-blank lines */
    static String strip(List<String> lines) {
        int common = Integer.MAX_VALUE;
        for (String l : lines) {
            if (!l.isBlank()) {
                common = Math.min(common, indentOf(l));
            }
        }
        if (common == Integer.MAX_VALUE) {
            common = 0;
        }
        StringBuilder sb = new StringBuilder();
        for (String l : lines) {
            sb.append(l, Math.min(common, indentOf(l)), l.length()).append('\n');
        }
        return sb.toString();
    }

    private static int indentOf(String l) {
        int i = 0;
        while (i < l.length() && (l.charAt(i) == ' ' || l.charAt(i) == '\t')) {
            i++;
        }
        return i;
    }
}
