package io.drover.core.spec.parse.hcl;

import java.util.List;

/**
 * Writes a literal {@link HclBody} back as HCL text, each item on its own line of the original file where
 * it can (blank lines fill the gaps), so that a reader of the text reports the lines the user wrote. What
 * {@code drover job run} sends the agent: the job evaluated here, with this machine's variables and files.
 * Strings are written quoted with escapes; their <code>${...}</code> and <code>%{...}</code> are kept, to be
 * read back literally ({@link HclEvaluation} is not run on the text again). Pure.
 */
public final class HclRenderer {
    private final StringBuilder out = new StringBuilder();
    private int line = 1;

    private HclRenderer() {}

    public static String render(HclBody body) {
        HclRenderer r = new HclRenderer();
        r.body(body, 0);
        return r.out.toString();
    }

    private void moveTo(int target) {
        while (line < target) {
            newline();
        }
    }

    private void newline() {
        out.append('\n');
        line++;
    }

    private void body(HclBody body, int indent) {
        for (HclItem item : body.items()) {
            moveTo(item.line());
            if (out.length() > 0 && out.charAt(out.length() - 1) != '\n') {
                newline();
            }
            out.append("  ".repeat(indent));
            if (item instanceof HclAttribute a) {
                out.append(a.name()).append(" = ");
                value(a.value(), indent);
            } else if (item instanceof HclBlock b) {
                out.append(b.type());
                for (String label : b.labels()) {
                    out.append(' ').append(quote(label));
                }
                out.append(" {");
                newline();
                body(b.body(), indent + 1);
                if (out.charAt(out.length() - 1) != '\n') {
                    newline();
                }
                out.append("  ".repeat(indent)).append('}');
            }
        }
        if (indent == 0) {
            newline();
        }
    }

    private void value(HclValue v, int indent) {
        if (v instanceof HclValue.Str s) {
            out.append(quote(s.value()));
        } else if (v instanceof HclValue.Num n) {
            out.append(n.value());
        } else if (v instanceof HclValue.Bool b) {
            out.append(b.value());
        } else if (v instanceof HclValue.ListValue l) {
            out.append('[');
            List<HclValue> items = l.items();
            for (int i = 0; i < items.size(); i++) {
                if (i > 0) {
                    out.append(", ");
                }
                value(items.get(i), indent);
            }
            out.append(']');
        } else if (v instanceof HclValue.ObjectValue o) {
            out.append('{');
            for (int i = 0; i < o.entries().size(); i++) {
                HclAttribute a = o.entries().get(i);
                out.append(i > 0 ? ", " : " ").append(quote(a.name())).append(" = ");
                value(a.value(), indent);
            }
            out.append(o.entries().isEmpty() ? "}" : " }");
        } else {
            out.append("null");
        }
    }

    static String quote(String s) {
        StringBuilder sb = new StringBuilder("\"");
        for (int i = 0; i < s.length(); i++) {
            char c = s.charAt(i);
            switch (c) {
                case '"' -> sb.append("\\\"");
                case '\\' -> sb.append("\\\\");
                case '\n' -> sb.append("\\n");
                case '\r' -> sb.append("\\r");
                case '\t' -> sb.append("\\t");
                default -> {
                    if (c < 0x20 || c == 0x7f) {
                        sb.append(String.format("\\u%04x", (int) c));
                    } else {
                        sb.append(c);
                    }
                }
            }
        }
        return sb.append('"').toString();
    }
}
