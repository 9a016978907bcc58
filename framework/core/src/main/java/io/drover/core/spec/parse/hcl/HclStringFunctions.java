package io.drover.core.spec.parse.hcl;

import static io.drover.core.spec.parse.hcl.HclValues.integer;
import static io.drover.core.spec.parse.hcl.HclValues.list;
import static io.drover.core.spec.parse.hcl.HclValues.str;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.util.ArrayList;
import java.util.List;
import java.util.Locale;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;

/** String functions of the jobspec ({@link HclFunctions}): format, join, split, case, trim, regex... Pure. */
final class HclStringFunctions {
    private static final Pattern VERB = Pattern.compile("%([-+ #0]*)(\\d+)?(?:\\.(\\d+))?([a-zA-Z%])");

    private HclStringFunctions() {}

    static void register(HclFunctions f) {
        f.add("chomp", 1, 1, a -> str(a.get(0)).replaceAll("(\\r?\\n)+$", ""));
        f.add("format", 1, -1, a -> format(str(a.get(0)), a.subList(1, a.size())));
        f.add("formatlist", 1, -1, HclStringFunctions::formatlist);
        f.add("indent", 2, 2, a -> str(a.get(1)).replace("\n", "\n" + " ".repeat((int) integer(a.get(0)))));
        f.add("join", 2, -1, a -> {
            List<String> parts = new ArrayList<>();
            for (Object l : a.subList(1, a.size())) {
                for (Object x : list(l)) {
                    parts.add(str(x));
                }
            }
            return String.join(str(a.get(0)), parts);
        });
        f.add("lower", 1, 1, a -> str(a.get(0)).toLowerCase(Locale.ROOT));
        f.add("upper", 1, 1, a -> str(a.get(0)).toUpperCase(Locale.ROOT));
        f.add("title", 1, 1, a -> title(str(a.get(0))));
        f.add("replace", 3, 3, a -> str(a.get(0)).replace(str(a.get(1)), str(a.get(2))));
        f.add("regex_replace", 3, 3, a -> pattern(a.get(1)).matcher(str(a.get(0))).replaceAll(goReplacement(str(a.get(2)))));
        f.add("regex", 2, 2, a -> regex(a, false));
        f.add("regexall", 2, 2, a -> regex(a, true));
        f.add("split", 2, 2, a -> {
            List<Object> out = new ArrayList<>();
            String sep = str(a.get(0));
            String s = str(a.get(1));
            if (sep.isEmpty()) {
                s.codePoints().forEach(cp -> out.add(new String(Character.toChars(cp))));
            } else {
                out.addAll(List.of((Object[]) s.split(Pattern.quote(sep), -1)));
            }
            return HclValues.listOf(out);
        });
        f.add("strlen", 1, 1, a -> (long) str(a.get(0)).codePointCount(0, str(a.get(0)).length()));
        f.add("strrev", 1, 1, a -> new StringBuilder(str(a.get(0))).reverse().toString());
        f.add("substr", 3, 3, a -> substr(str(a.get(0)), integer(a.get(1)), integer(a.get(2))));
        f.add("trim", 2, 2, a -> trim(str(a.get(0)), str(a.get(1))));
        f.add("trimprefix", 2, 2, a -> str(a.get(0)).startsWith(str(a.get(1)))
                ? str(a.get(0)).substring(str(a.get(1)).length()) : str(a.get(0)));
        f.add("trimsuffix", 2, 2, a -> str(a.get(0)).endsWith(str(a.get(1)))
                ? str(a.get(0)).substring(0, str(a.get(0)).length() - str(a.get(1)).length()) : str(a.get(0)));
        f.add("trimspace", 1, 1, a -> str(a.get(0)).strip());
        f.add("tostring", 1, 1, a -> a.get(0) == null ? null : str(a.get(0)));
    }

    private static String title(String s) {
        StringBuilder sb = new StringBuilder(s.length());
        boolean start = true;
        for (char c : s.toCharArray()) {
            sb.append(start && Character.isLetter(c) ? Character.toTitleCase(c) : c);
            start = !Character.isLetterOrDigit(c);
        }
        return sb.toString();
    }

    private static String trim(String s, String cut) {
        int b = 0;
        int e = s.length();
        while (b < e && cut.indexOf(s.charAt(b)) >= 0) {
            b++;
        }
        while (e > b && cut.indexOf(s.charAt(e - 1)) >= 0) {
            e--;
        }
        return s.substring(b, e);
    }

    private static String substr(String s, long offset, long length) throws ValueException {
        int[] cps = s.codePoints().toArray();
        long start = offset < 0 ? cps.length + offset : offset;
        if (start < 0 || start > cps.length) {
            throw new ValueException("offset " + offset + " is out of range for a string of " + cps.length + " characters");
        }
        long end = length < 0 ? cps.length : Math.min(cps.length, start + length);
        return new String(cps, (int) start, (int) (end - start));
    }

    static Pattern pattern(Object p) throws ValueException {
        try {
            return Pattern.compile(str(p));
        } catch (PatternSyntaxException e) {
            throw new ValueException("invalid regular expression: " + e.getDescription());
        }
    }

    /** Go's {@code $1}/{@code ${1}} replacement syntax in Java's ({@code ${1}} becomes {@code $1}). */
    private static String goReplacement(String r) {
        return r.replaceAll("\\$\\{(\\d+)\\}", "\\$$1");
    }

    private static Object regex(List<Object> a, boolean all) throws ValueException {
        Pattern p = pattern(a.get(0));
        Matcher m = p.matcher(str(a.get(1)));
        List<Object> found = new ArrayList<>();
        while (m.find()) {
            found.add(match(m));
            if (!all) {
                break;
            }
        }
        if (all) {
            return HclValues.listOf(found);
        }
        if (found.isEmpty()) {
            throw new ValueException("the pattern did not match");
        }
        return found.get(0);
    }

    private static Object match(Matcher m) {
        if (m.groupCount() == 0) {
            return m.group();
        }
        List<Object> groups = new ArrayList<>();
        for (int g = 1; g <= m.groupCount(); g++) {
            groups.add(m.group(g));
        }
        return HclValues.listOf(groups);
    }

    private static Object formatlist(List<Object> a) throws ValueException {
        int n = -1;
        for (Object x : a.subList(1, a.size())) {
            if (x instanceof List<?> l) {
                if (n >= 0 && l.size() != n) {
                    throw new ValueException("all list arguments must have the same length");
                }
                n = l.size();
            }
        }
        if (n < 0) {
            n = 1;
        }
        List<Object> out = new ArrayList<>();
        for (int i = 0; i < n; i++) {
            List<Object> args = new ArrayList<>();
            for (Object x : a.subList(1, a.size())) {
                args.add(x instanceof List<?> l ? l.get(i) : x);
            }
            out.add(format(str(a.get(0)), args));
        }
        return HclValues.listOf(out);
    }

    /** Go's fmt verbs as cty's format offers them: %s %d %f %e %g %x %X %o %b %q %v %t %%. */
    static String format(String spec, List<Object> args) throws ValueException {
        Matcher m = VERB.matcher(spec);
        StringBuilder sb = new StringBuilder();
        int next = 0;
        int last = 0;
        while (m.find()) {
            sb.append(spec, last, m.start());
            last = m.end();
            char verb = m.group(4).charAt(0);
            if (verb == '%') {
                sb.append('%');
                continue;
            }
            if (next >= args.size()) {
                throw new ValueException("not enough arguments for the format \"" + spec + "\"");
            }
            Object arg = args.get(next++);
            String flags = m.group(1);
            String width = m.group(2) == null ? "" : m.group(2);
            String prec = m.group(3) == null ? "" : "." + m.group(3);
            String javaSpec = "%" + flags.replace(" ", "") + width;
            String text = switch (verb) {
                case 'd' -> String.format(Locale.ROOT, javaSpec + "d", integer(arg));
                case 'f', 'e', 'g', 'E', 'G' -> String.format(Locale.ROOT, javaSpec + prec + verb,
                        HclValues.num(arg).doubleValue());
                case 'x', 'X', 'o' -> String.format(Locale.ROOT, javaSpec + verb, integer(arg));
                case 'b' -> Long.toBinaryString(integer(arg));
                case 's' -> String.format(Locale.ROOT, javaSpec + prec + "s", str(arg));
                case 'q' -> HclEncodingFunctions.json(str(arg));
                case 't' -> String.valueOf(HclValues.bool(arg));
                case 'v' -> arg instanceof String || arg instanceof Number || arg instanceof Boolean ? str(arg)
                        : HclEncodingFunctions.json(arg);
                default -> throw new ValueException("unsupported verb %" + verb + " in \"" + spec + "\"");
            };
            sb.append(text);
        }
        sb.append(spec.substring(last));
        if (next < args.size()) {
            throw new ValueException("too many arguments for the format \"" + spec + "\"");
        }
        return sb.toString();
    }
}
