package io.drover.core.template;

import java.util.List;

/** Go's fmt.Sprintf for the verbs templates use: %v %s %d %f %g %e %q %t %x %X %o %c %%, widths, flags. Pure. */
final class Printf {
    private Printf() {}

    static String format(String f, List<Object> args) throws TemplateException {
        StringBuilder out = new StringBuilder();
        int arg = 0;
        for (int i = 0; i < f.length(); i++) {
            char c = f.charAt(i);
            if (c != '%') {
                out.append(c);
                continue;
            }
            int st = i++;
            while (i < f.length() && "+-# 0123456789.".indexOf(f.charAt(i)) >= 0) {
                i++;
            }
            if (i >= f.length()) {
                out.append("%!(NOVERB)");
                break;
            }
            char verb = f.charAt(i);
            String flags = f.substring(st + 1, i);
            if (verb == '%') {
                out.append('%');
                continue;
            }
            if (arg >= args.size()) {
                out.append("%!").append(verb).append("(MISSING)");
                continue;
            }
            Object v = args.get(arg++);
            String spec = "%" + flags.replace("#", "");
            out.append(switch (verb) {
                case 'v', 's' -> String.format(spec + "s", Values.print(v));
                case 'q' -> String.format(spec + "s", quote(Values.print(v)));
                case 't' -> String.format(spec + "s", String.valueOf(Values.truth(v)));
                case 'd' -> String.format(spec + "d", Values.number(v, "printf").longValue());
                case 'x', 'X', 'o' -> String.format(spec + verb, Values.number(v, "printf").longValue());
                case 'c' -> new String(Character.toChars(Values.number(v, "printf").intValue()));
                case 'f', 'F' -> String.format(spec + (flags.contains(".") ? "" : ".6") + "f",
                        Values.number(v, "printf").doubleValue());
                case 'e', 'g' -> String.format(spec + verb, Values.number(v, "printf").doubleValue());
                default -> "%!" + verb + "(" + Values.print(v) + ")";
            });
        }
        if (arg < args.size()) {
            out.append("%!(EXTRA ");
            for (int k = arg; k < args.size(); k++) {
                out.append(k == arg ? "" : ", ").append(Values.print(args.get(k)));
            }
            out.append(')');
        }
        return out.toString();
    }

    static String quote(String s) {
        StringBuilder b = new StringBuilder("\"");
        for (char c : s.toCharArray()) {
            switch (c) {
                case '"' -> b.append("\\\"");
                case '\\' -> b.append("\\\\");
                case '\n' -> b.append("\\n");
                case '\t' -> b.append("\\t");
                default -> b.append(c);
            }
        }
        return b.append('"').toString();
    }
}
