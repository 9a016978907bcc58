package io.drover.core.engine;

import io.drover.core.template.TemplateException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code KEY=value} lines of an {@code env = true} template, as Nomad reads them (its template hook parses the
 * file with hashicorp/go-envparse): blank lines and {@code #} comment lines skipped, an optional {@code export },
 * the value trimmed; in the value, {@code "..."} and {@code '...'} quote (anywhere, several times, next to
 * unquoted text), inside double quotes {@code \\}, {@code \"}, {@code \n} and {@code \t} are escapes (so a
 * {@code toJSON} string written in double quotes reads back as the text it encodes), and outside quotes {@code #}
 * starts a comment. A line without {@code =}, a key that is not a variable name, an unmatched quote, another
 * escape or a control character is an error naming the line. Pure.
 */
final class EnvFile {
    private EnvFile() {}

    static Map<String, String> parse(String text, String name) throws TemplateException {
        Map<String, String> out = new LinkedHashMap<>();
        String[] lines = text.split("\n", -1);
        for (int i = 0; i < lines.length; i++) {
            String line = lines[i].strip();
            if (line.isEmpty() || line.startsWith("#")) {
                continue;
            }
            if (line.startsWith("export ")) {
                line = line.substring(7).strip();
            }
            int eq = line.indexOf('=');
            String key = eq < 0 ? line : line.substring(0, eq).strip();
            if (eq < 0 || !key.matches("[A-Za-z_][A-Za-z0-9_.]*")) {
                throw new TemplateException(name + ":" + (i + 1) + ": an env template line must be KEY=value, found \""
                        + line + "\"");
            }
            String value = value(line.substring(eq + 1).strip(), name + ":" + (i + 1));
            out.put(key, value);
        }
        return out;
    }

    /** A value with its quotes and escapes read, its trailing comment dropped; {@code where} names the line. */
    private static String value(String raw, String where) throws TemplateException {
        StringBuilder v = new StringBuilder(raw.length());
        int significant = 0; // the length up to the last character that is not unquoted blank (before a comment)
        char quote = 0;
        for (int i = 0; i < raw.length(); i++) {
            char c = raw.charAt(i);
            if (c < 32) {
                throw new TemplateException(where + ": an env template value holds a control character (0x"
                        + String.format("%02x", (int) c) + "); write it as \\n or \\t inside double quotes");
            }
            if (quote == 0) {
                if (c == '"' || c == '\'') {
                    quote = c;
                } else if (c == '#') {
                    return v.substring(0, significant);
                } else {
                    v.append(c);
                    if (c != ' ') {
                        significant = v.length();
                    }
                }
            } else if (c == quote) {
                quote = 0;
            } else if (quote == '"' && c == '\\') {
                if (++i == raw.length()) {
                    throw new TemplateException(where + ": an env template value ends inside an escape (\\)");
                }
                char e = raw.charAt(i);
                switch (e) {
                    case '"', '\\' -> v.append(e);
                    case 'n' -> v.append('\n');
                    case 't' -> v.append('\t');
                    default -> throw new TemplateException(where + ": an env template value has the escape \\" + e
                            + "; inside double quotes only \\\\, \\\", \\n and \\t are escapes");
                }
                significant = v.length();
            } else {
                v.append(c);
                significant = v.length();
            }
        }
        if (quote != 0) {
            throw new TemplateException(where + ": an env template value has an unmatched " + quote);
        }
        return v.toString();
    }
}
