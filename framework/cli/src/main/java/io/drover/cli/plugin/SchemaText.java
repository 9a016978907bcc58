package io.drover.cli.plugin;

import io.drover.cli.client.Json;
import io.drover.cli.format.TerminalText;
import io.drover.core.driver.DriverInfo;
import io.drover.driver.api.schema.ConfigSchema;
import java.util.ArrayList;
import java.util.List;

/**
 * The config schemas of {@code drover plugin status -verbose}: per driver, its task config and plugin config keys,
 * one line each ({@code ConfigSchema.lines()}), from a local registry or from {@code GET /v1/plugins}'s
 * {@code TaskConfigSchema}/{@code PluginConfigSchema} (the same lines either way). Pure.
 */
final class SchemaText {
    private SchemaText() {}

    static String of(List<DriverInfo> drivers) {
        StringBuilder sb = new StringBuilder();
        for (DriverInfo d : drivers) {
            section(sb, d.name(), "task config", d.schemas().task().map(ConfigSchema::lines).orElse(null));
            section(sb, d.name(), "plugin config", d.schemas().plugin().map(ConfigSchema::lines).orElse(null));
        }
        return sb.toString();
    }

    static String ofJson(Json plugins) {
        StringBuilder sb = new StringBuilder();
        for (Json p : plugins) {
            String name = p.path("Name").asText();
            section(sb, name, "task config", lines(p.path("TaskConfigSchema")));
            section(sb, name, "plugin config", lines(p.path("PluginConfigSchema")));
        }
        return sb.toString();
    }

    private static void section(StringBuilder sb, String driver, String what, List<String> lines) {
        sb.append('\n').append("Driver \"").append(TerminalText.escape(driver)).append("\" ").append(what);
        if (lines == null) {
            sb.append(": no schema declared (the driver checks it itself)\n");
            return;
        }
        if (lines.isEmpty()) {
            sb.append(": takes no keys\n");
            return;
        }
        sb.append(":\n");
        lines.forEach(l -> sb.append("  ").append(TerminalText.escape(l)).append('\n'));
    }

    /** The lines of a schema as JSON, rebuilt as ConfigSchema.lines() writes them; null for no schema. */
    private static List<String> lines(Json keys) {
        if (keys == null || keys.isNull() || keys.isMissingNode()) {
            return null;
        }
        List<String> out = new ArrayList<>();
        lines(keys, "", out);
        return out;
    }

    private static void lines(Json keys, String indent, List<String> out) {
        for (Json k : keys) {
            StringBuilder sb = new StringBuilder(indent).append(k.path("name").asText()).append("  ");
            switch (k.path("kind").asText()) {
                case "block" -> sb.append(k.path("required").asBoolean() ? "block, required" : "block");
                case "block_list" -> sb.append("blocks")
                        .append(k.path("min_items").asInt() > 0 ? ", at least " + k.path("min_items").asInt() : "")
                        .append(k.path("max_items").asInt() > 0 ? ", at most " + k.path("max_items").asInt() : "");
                default -> {
                    sb.append(k.path("type").asText());
                    if (k.path("required").asBoolean()) {
                        sb.append(", required");
                    }
                    if (k.hasNonNull("default")) {
                        sb.append(", default ").append(k.path("default").asText());
                    }
                    List<String> allowed = new ArrayList<>();
                    k.path("allowed").forEach(a -> allowed.add(a.asText()));
                    if (!allowed.isEmpty()) {
                        sb.append(", one of ").append(String.join("|", allowed));
                    }
                }
            }
            if (!k.path("description").asText().isEmpty()) {
                sb.append("  ").append(k.path("description").asText());
            }
            out.add(sb.toString());
            if (k.has("keys")) {
                lines(k.path("keys"), indent + "  ", out);
            }
        }
    }
}
