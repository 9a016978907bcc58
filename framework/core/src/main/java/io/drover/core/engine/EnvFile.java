package io.drover.core.engine;

import io.drover.core.template.TemplateException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * The {@code KEY=value} lines of an {@code env = true} template, as Nomad reads them: blank lines and {@code #}
 * comments skipped, an optional {@code export }, surrounding quotes removed. A line without {@code =} or with a
 * key that is not a variable name is an error naming the line. Pure.
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
            String value = line.substring(eq + 1).strip();
            if (value.length() >= 2 && (value.startsWith("\"") && value.endsWith("\"")
                    || value.startsWith("'") && value.endsWith("'"))) {
                value = value.substring(1, value.length() - 1);
            }
            out.put(key, value);
        }
        return out;
    }
}
