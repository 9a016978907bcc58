package io.drover.core.template;

import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.LinkedHashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;

/**
 * The sprig functions consul-template exposes as {@code sprig_<name>} (Masterminds/sprig v3 semantics, argument
 * order included: the value a pipeline passes is the last argument): the common string, list, dict, math,
 * conversion, encoding and date ones. Randomness-free and world-free except {@code sprig_now} (the render's
 * clock). Pure otherwise; thread-safe.
 */
final class SprigFuncs {
    private SprigFuncs() {}

    static final Set<String> NAMES = Set.of("sprig_upper", "sprig_lower", "sprig_title", "sprig_untitle",
            "sprig_trim", "sprig_trimAll", "sprig_trimPrefix", "sprig_trimSuffix", "sprig_repeat", "sprig_substr",
            "sprig_nospace", "sprig_trunc", "sprig_contains", "sprig_hasPrefix", "sprig_hasSuffix", "sprig_quote",
            "sprig_squote", "sprig_cat", "sprig_indent", "sprig_nindent", "sprig_replace", "sprig_splitList",
            "sprig_join", "sprig_list", "sprig_first", "sprig_last", "sprig_rest", "sprig_initial", "sprig_append",
            "sprig_prepend", "sprig_concat", "sprig_reverse", "sprig_uniq", "sprig_without", "sprig_has",
            "sprig_compact", "sprig_sortAlpha", "sprig_dict", "sprig_get", "sprig_set", "sprig_unset",
            "sprig_hasKey", "sprig_keys", "sprig_values", "sprig_merge", "sprig_pick", "sprig_omit", "sprig_add",
            "sprig_add1", "sprig_sub", "sprig_mul", "sprig_div", "sprig_mod", "sprig_max", "sprig_min",
            "sprig_floor", "sprig_ceil", "sprig_round", "sprig_until", "sprig_seq", "sprig_default", "sprig_empty",
            "sprig_coalesce", "sprig_ternary", "sprig_toString", "sprig_atoi", "sprig_int", "sprig_int64",
            "sprig_float64", "sprig_toStrings", "sprig_b64enc", "sprig_b64dec", "sprig_sha256sum", "sprig_sha1sum",
            "sprig_toJson", "sprig_toPrettyJson", "sprig_fromJson", "sprig_now", "sprig_date", "sprig_unixEpoch",
            "sprig_regexMatch", "sprig_regexFindAll", "sprig_regexReplaceAll", "sprig_kebabcase",
            "sprig_snakecase", "sprig_camelcase");

    private static final com.fasterxml.jackson.databind.ObjectMapper JSON =
            new com.fasterxml.jackson.databind.ObjectMapper();

    /** The function, or null when {@code name} is not one of {@link #NAMES}. */
    static Funcs.Fn of(String name, Funcs.Env env) {
        if (!NAMES.contains(name)) {
            return null;
        }
        String n = name.substring("sprig_".length());
        return switch (n) {
            case "upper" -> a -> s(a, 0, n).toUpperCase(Locale.ROOT);
            case "lower" -> a -> s(a, 0, n).toLowerCase(Locale.ROOT);
            case "title" -> a -> words(s(a, 0, n), true);
            case "untitle" -> a -> words(s(a, 0, n), false);
            case "trim" -> a -> s(a, 0, n).strip();
            case "trimAll" -> a -> cut(s(a, 1, n), s(a, 0, n));
            case "trimPrefix" -> a -> {
                String v = s(a, 1, n);
                return v.startsWith(s(a, 0, n)) ? v.substring(s(a, 0, n).length()) : v;
            };
            case "trimSuffix" -> a -> {
                String v = s(a, 1, n);
                String p = s(a, 0, n);
                return v.endsWith(p) ? v.substring(0, v.length() - p.length()) : v;
            };
            case "repeat" -> a -> s(a, 1, n).repeat(Math.max(0, i(a, 0, n)));
            case "substr" -> a -> {
                String v = s(a, 2, n);
                int from = Math.max(0, i(a, 0, n));
                int to = i(a, 1, n);
                if (to < 0 || to > v.length()) {
                    to = v.length();
                }
                return from >= to ? "" : v.substring(from, to);
            };
            case "nospace" -> a -> s(a, 0, n).replaceAll("\\s", "");
            case "trunc" -> a -> {
                String v = s(a, 1, n);
                int c = i(a, 0, n);
                if (c >= 0) {
                    return v.length() > c ? v.substring(0, c) : v;
                }
                return v.length() + c > 0 ? v.substring(v.length() + c) : "";
            };
            case "contains" -> a -> s(a, 1, n).contains(s(a, 0, n));
            case "hasPrefix" -> a -> s(a, 1, n).startsWith(s(a, 0, n));
            case "hasSuffix" -> a -> s(a, 1, n).endsWith(s(a, 0, n));
            case "quote", "squote" -> a -> {
                List<String> out = new ArrayList<>();
                String q = n.equals("quote") ? "\"" : "'";
                for (Object o : a) {
                    if (o != null) {
                        String v = str(o);
                        out.add(n.equals("quote") ? q + v.replace("\\", "\\\\").replace("\"", "\\\"") + q
                                : q + v + q);
                    }
                }
                return String.join(" ", out);
            };
            case "cat" -> a -> String.join(" ", a.stream().filter(o -> o != null).map(SprigFuncs::str).toList());
            case "indent", "nindent" -> a -> {
                String pad = " ".repeat(Math.max(0, i(a, 0, n)));
                String v = pad + s(a, 1, n).replace("\n", "\n" + pad);
                return n.equals("nindent") ? "\n" + v : v;
            };
            case "replace" -> a -> s(a, 2, n).replace(s(a, 0, n), s(a, 1, n));
            case "splitList" -> a -> {
                String sep = s(a, 0, n);
                String v = s(a, 1, n);
                List<Object> out = new ArrayList<>();
                int from = 0;
                for (int k; !sep.isEmpty() && (k = v.indexOf(sep, from)) >= 0; from = k + sep.length()) {
                    out.add(v.substring(from, k));
                }
                out.add(v.substring(from));
                return out;
            };
            case "join" -> a -> String.join(s(a, 0, n), list(a, 1, n).stream().map(SprigFuncs::str).toList());
            case "list" -> a -> new ArrayList<>(a);
            case "first" -> a -> list(a, 0, n).isEmpty() ? null : list(a, 0, n).get(0);
            case "last" -> a -> {
                List<?> l = list(a, 0, n);
                return l.isEmpty() ? null : l.get(l.size() - 1);
            };
            case "rest" -> a -> {
                List<?> l = list(a, 0, n);
                return l.isEmpty() ? new ArrayList<>() : new ArrayList<Object>(l.subList(1, l.size()));
            };
            case "initial" -> a -> {
                List<?> l = list(a, 0, n);
                return l.isEmpty() ? new ArrayList<>() : new ArrayList<Object>(l.subList(0, l.size() - 1));
            };
            case "append" -> a -> {
                List<Object> out = new ArrayList<>(list(a, 0, n));
                out.add(arg(a, 1, n));
                return out;
            };
            case "prepend" -> a -> {
                List<Object> out = new ArrayList<>();
                out.add(arg(a, 1, n));
                out.addAll(list(a, 0, n));
                return out;
            };
            case "concat" -> a -> {
                List<Object> out = new ArrayList<>();
                for (int k = 0; k < a.size(); k++) {
                    out.addAll(list(a, k, n));
                }
                return out;
            };
            case "reverse" -> a -> {
                List<Object> out = new ArrayList<>(list(a, 0, n));
                java.util.Collections.reverse(out);
                return out;
            };
            case "uniq" -> a -> {
                List<Object> out = new ArrayList<>();
                for (Object o : list(a, 0, n)) {
                    if (out.stream().noneMatch(x -> same(x, o))) {
                        out.add(o);
                    }
                }
                return out;
            };
            case "without" -> a -> {
                List<Object> drop = a.subList(1, a.size());
                return new ArrayList<Object>(list(a, 0, n).stream()
                        .filter(o -> drop.stream().noneMatch(x -> same(x, o))).toList());
            };
            case "has" -> a -> list(a, 1, n).stream().anyMatch(o -> same(o, a.get(0)));
            case "compact" -> a -> new ArrayList<Object>(list(a, 0, n).stream().filter(Values::truth).toList());
            case "sortAlpha" -> a -> new ArrayList<Object>(list(a, 0, n).stream().map(SprigFuncs::str).sorted()
                    .toList());
            case "dict" -> a -> {
                Map<String, Object> out = new LinkedHashMap<>();
                for (int k = 0; k < a.size(); k += 2) {
                    out.put(str(a.get(k)), k + 1 < a.size() ? a.get(k + 1) : "");
                }
                return out;
            };
            case "get" -> a -> {
                Object v = map(a, 0, n).get(s(a, 1, n));
                return v == null ? "" : v;
            };
            case "set" -> a -> {
                Map<String, Object> m = map(a, 0, n);
                m.put(s(a, 1, n), arg(a, 2, n));
                return m;
            };
            case "unset" -> a -> {
                Map<String, Object> m = map(a, 0, n);
                m.remove(s(a, 1, n));
                return m;
            };
            case "hasKey" -> a -> map(a, 0, n).containsKey(s(a, 1, n));
            case "keys" -> a -> {
                Set<Object> out = new LinkedHashSet<>();
                for (int k = 0; k < a.size(); k++) {
                    out.addAll(map(a, k, n).keySet());
                }
                return new ArrayList<>(out);
            };
            case "values" -> a -> new ArrayList<>(map(a, 0, n).values());
            case "merge" -> a -> {
                Map<String, Object> dst = map(a, 0, n);
                for (int k = 1; k < a.size(); k++) {
                    map(a, k, n).forEach(dst::putIfAbsent);
                }
                return dst;
            };
            case "pick", "omit" -> a -> {
                Map<String, Object> src = map(a, 0, n);
                Set<String> keys = new LinkedHashSet<>();
                a.subList(1, a.size()).forEach(o -> keys.add(str(o)));
                Map<String, Object> out = new LinkedHashMap<>();
                src.forEach((k, v) -> {
                    if (keys.contains(k) == n.equals("pick")) {
                        out.put(k, v);
                    }
                });
                return out;
            };
            case "add" -> a -> {
                long sum = 0;
                for (int k = 0; k < a.size(); k++) {
                    sum += l(a, k, n);
                }
                return sum;
            };
            case "add1" -> a -> l(a, 0, n) + 1;
            case "sub" -> a -> l(a, 0, n) - l(a, 1, n);
            case "mul" -> a -> {
                long p = 1;
                for (int k = 0; k < a.size(); k++) {
                    p *= l(a, k, n);
                }
                return p;
            };
            case "div", "mod" -> a -> {
                long d = l(a, 1, n);
                if (d == 0) {
                    throw new TemplateException(name + ": division by zero");
                }
                return n.equals("div") ? l(a, 0, n) / d : l(a, 0, n) % d;
            };
            case "max", "min" -> a -> {
                long best = l(a, 0, n);
                for (int k = 1; k < a.size(); k++) {
                    long v = l(a, k, n);
                    best = n.equals("max") ? Math.max(best, v) : Math.min(best, v);
                }
                return best;
            };
            case "floor" -> a -> Math.floor(d(a, 0, n));
            case "ceil" -> a -> Math.ceil(d(a, 0, n));
            case "round" -> a -> {
                double v = d(a, 0, n);
                int places = a.size() > 1 ? i(a, 1, n) : 0;
                double f = Math.pow(10, places);
                return Math.round(v * f) / f;
            };
            case "until" -> a -> range(0, l(a, 0, n), 1);
            case "seq" -> a -> {
                List<Object> out = new ArrayList<>();
                if (a.size() == 1) {
                    range(1, l(a, 0, n) + 1, 1).forEach(o -> out.add(o));
                } else if (a.size() == 2) {
                    long from = l(a, 0, n);
                    long to = l(a, 1, n);
                    range(from, from <= to ? to + 1 : to - 1, from <= to ? 1 : -1).forEach(out::add);
                } else {
                    long step = l(a, 1, n);
                    long to = l(a, 2, n);
                    range(l(a, 0, n), step > 0 ? to + 1 : to - 1, step).forEach(out::add);
                }
                return String.join(" ", out.stream().map(SprigFuncs::str).toList());
            };
            case "default" -> a -> a.size() < 2 || !Values.truth(a.get(1)) ? arg(a, 0, n) : a.get(1);
            case "empty" -> a -> !Values.truth(arg(a, 0, n));
            case "coalesce" -> a -> a.stream().filter(Values::truth).findFirst().orElse(null);
            case "ternary" -> a -> Values.truth(arg(a, 2, n)) ? a.get(0) : a.get(1);
            case "toString" -> a -> str(arg(a, 0, n));
            case "toStrings" -> a -> new ArrayList<Object>(list(a, 0, n).stream().map(SprigFuncs::str).toList());
            case "atoi", "int", "int64" -> a -> {
                Object v = arg(a, 0, n);
                try {
                    return v instanceof Number num ? num.longValue() : (long) Double.parseDouble(str(v).trim());
                } catch (NumberFormatException e) {
                    return 0L; // sprig's conversions give 0 for what is not a number
                }
            };
            case "float64" -> a -> {
                Object v = arg(a, 0, n);
                try {
                    return v instanceof Number num ? num.doubleValue() : Double.parseDouble(str(v).trim());
                } catch (NumberFormatException e) {
                    return 0.0;
                }
            };
            case "b64enc" -> a -> Base64.getEncoder().encodeToString(s(a, 0, n).getBytes(StandardCharsets.UTF_8));
            case "b64dec" -> a -> {
                try {
                    return new String(Base64.getDecoder().decode(s(a, 0, n)), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new TemplateException(name + ": " + e.getMessage());
                }
            };
            case "sha256sum" -> a -> digest("SHA-256", s(a, 0, n));
            case "sha1sum" -> a -> digest("SHA-1", s(a, 0, n));
            case "toJson", "toPrettyJson" -> a -> {
                try {
                    return n.equals("toJson") ? JSON.writeValueAsString(arg(a, 0, n))
                            : JSON.writerWithDefaultPrettyPrinter().writeValueAsString(arg(a, 0, n));
                } catch (java.io.IOException e) {
                    throw new TemplateException(name + ": " + e.getMessage());
                }
            };
            case "fromJson" -> a -> {
                try {
                    return JSON.readValue(s(a, 0, n), Object.class);
                } catch (java.io.IOException e) {
                    return new LinkedHashMap<>(); // sprig's fromJson gives an empty value on bad input
                }
            };
            case "now" -> a -> env.now();
            case "unixEpoch" -> a -> String.valueOf(instant(arg(a, 0, n), env).getEpochSecond());
            case "date" -> a -> GoTime.format(instant(arg(a, 1, n), env), s(a, 0, n));
            case "regexMatch" -> a -> java.util.regex.Pattern.compile(s(a, 0, n)).matcher(s(a, 1, n)).find();
            case "regexFindAll" -> a -> {
                var m = java.util.regex.Pattern.compile(s(a, 0, n)).matcher(s(a, 1, n));
                int limit = a.size() > 2 ? i(a, 2, n) : -1;
                List<Object> out = new ArrayList<>();
                while (m.find() && (limit < 0 || out.size() < limit)) {
                    out.add(m.group());
                }
                return out;
            };
            case "regexReplaceAll" -> a -> java.util.regex.Pattern.compile(s(a, 0, n)).matcher(s(a, 1, n))
                    .replaceAll(s(a, 2, n).replaceAll("\\$\\{(\\d+)\\}", "\\$$1"));
            case "kebabcase" -> a -> delimited(s(a, 0, n), '-');
            case "snakecase" -> a -> delimited(s(a, 0, n), '_');
            case "camelcase" -> a -> {
                StringBuilder b = new StringBuilder();
                for (String w : s(a, 0, n).split("[_\\-\\s]+")) {
                    if (!w.isEmpty()) {
                        b.append(Character.toUpperCase(w.charAt(0))).append(w.substring(1));
                    }
                }
                return b.toString();
            };
            default -> null;
        };
    }

    /** Go's == for the list functions; values Go cannot compare are unequal. */
    private static boolean same(Object x, Object y) {
        try {
            return Compare.equal(x, y);
        } catch (TemplateException e) {
            return false;
        }
    }

    private static List<Object> range(long from, long to, long step) {
        List<Object> out = new ArrayList<>();
        if (step == 0) {
            return out;
        }
        for (long v = from; step > 0 ? v < to : v > to; v += step) {
            out.add(v);
            if (out.size() > 100_000) {
                break; // a template cannot make an unbounded list
            }
        }
        return out;
    }

    private static Instant instant(Object v, Funcs.Env env) throws TemplateException {
        if (v instanceof Instant t) {
            return t;
        }
        if (v instanceof Number num) {
            return Instant.ofEpochSecond(num.longValue());
        }
        throw new TemplateException("date: " + Values.print(v) + " is not a time");
    }

    private static String delimited(String v, char sep) {
        StringBuilder b = new StringBuilder();
        for (int k = 0; k < v.length(); k++) {
            char c = v.charAt(k);
            if (Character.isUpperCase(c)) {
                if (k > 0 && b.length() > 0 && b.charAt(b.length() - 1) != sep) {
                    b.append(sep);
                }
                b.append(Character.toLowerCase(c));
            } else if (c == '_' || c == '-' || Character.isWhitespace(c)) {
                if (b.length() > 0 && b.charAt(b.length() - 1) != sep) {
                    b.append(sep);
                }
            } else {
                b.append(c);
            }
        }
        return b.toString();
    }

    private static String words(String v, boolean upper) {
        StringBuilder b = new StringBuilder(v.length());
        boolean start = true;
        for (char c : v.toCharArray()) {
            b.append(start ? (upper ? Character.toTitleCase(c) : Character.toLowerCase(c)) : c);
            start = Character.isWhitespace(c);
        }
        return b.toString();
    }

    private static String cut(String v, String chars) {
        int from = 0;
        int to = v.length();
        while (from < to && chars.indexOf(v.charAt(from)) >= 0) {
            from++;
        }
        while (to > from && chars.indexOf(v.charAt(to - 1)) >= 0) {
            to--;
        }
        return v.substring(from, to);
    }

    private static String digest(String algo, String v) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance(algo)
                    .digest(v.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }

    private static Object arg(List<Object> a, int k, String n) throws TemplateException {
        if (a.size() <= k) {
            throw new TemplateException("wrong number of args for sprig_" + n + ": want at least " + (k + 1)
                    + " got " + a.size());
        }
        return a.get(k);
    }

    private static String str(Object o) {
        return o instanceof String s ? s : o == null ? "" : Values.print(o);
    }

    private static String s(List<Object> a, int k, String n) throws TemplateException {
        return str(arg(a, k, n));
    }

    private static long l(List<Object> a, int k, String n) throws TemplateException {
        return Values.number(arg(a, k, n), "sprig_" + n).longValue();
    }

    private static int i(List<Object> a, int k, String n) throws TemplateException {
        return (int) l(a, k, n);
    }

    private static double d(List<Object> a, int k, String n) throws TemplateException {
        return Values.number(arg(a, k, n), "sprig_" + n).doubleValue();
    }

    private static List<?> list(List<Object> a, int k, String n) throws TemplateException {
        Object v = arg(a, k, n);
        if (v instanceof List<?> l) {
            return l;
        }
        throw new TemplateException("sprig_" + n + ": " + Values.print(v) + " is not a list");
    }

    @SuppressWarnings("unchecked")
    private static Map<String, Object> map(List<Object> a, int k, String n) throws TemplateException {
        Object v = arg(a, k, n);
        if (v instanceof Map<?, ?> m) {
            if (m instanceof LinkedHashMap || m instanceof TreeMap || m instanceof java.util.HashMap) {
                return (Map<String, Object>) m;
            }
            return new LinkedHashMap<>((Map<String, Object>) m);
        }
        throw new TemplateException("sprig_" + n + ": " + Values.print(v) + " is not a dict");
    }
}
