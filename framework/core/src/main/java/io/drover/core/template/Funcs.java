package io.drover.core.template;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.nio.charset.StandardCharsets;
import java.time.Instant;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.Locale;
import java.util.Map;
import java.util.Set;
import java.util.function.Function;

/**
 * The functions of Go's text/template and those of consul-template that need no Consul, Vault or Nomad server.
 * The ones that do are refused by name ({@link #refusal}). Functions that read the world (env, file, timestamp)
 * go through the {@link Env} the renderer gets. Pure otherwise.
 */
final class Funcs {
    /** What a template may read: the task's environment and files inside its allocation. */
    interface Env {
        String env(String name);

        String file(String path) throws TemplateException;

        Instant now();

        /** Nomad's service registry ({@link GoTemplate.Reader#nomad}). */
        Object nomad(NomadQuery query) throws TemplateException;
    }

    @FunctionalInterface
    interface Fn {
        Object call(List<Object> args) throws TemplateException;
    }

    private static final ObjectMapper JSON = new ObjectMapper();

    private static final Map<String, String> REFUSED = Map.ofEntries(
            Map.entry("key", "Consul"), Map.entry("keyExists", "Consul"), Map.entry("keyOrDefault", "Consul"),
            Map.entry("ls", "Consul"), Map.entry("safeLs", "Consul"), Map.entry("tree", "Consul"),
            Map.entry("safeTree", "Consul"), Map.entry("service", "Consul"), Map.entry("services", "Consul"),
            Map.entry("connect", "Consul"), Map.entry("caRoot", "Consul"), Map.entry("caLeaf", "Consul"),
            Map.entry("checks", "Consul"), Map.entry("datacenters", "Consul"), Map.entry("node", "Consul"),
            Map.entry("nodes", "Consul"), Map.entry("partitions", "Consul"), Map.entry("peerings", "Consul"),
            Map.entry("exportedServices", "Consul"),
            Map.entry("secret", "Vault"), Map.entry("secrets", "Vault"), Map.entry("pkiCert", "Vault"));

    private Funcs() {}

    private static String str(Object o) {
        return o == null ? "" : String.valueOf(o);
    }

    /** The template function a query came from. */
    static String name(NomadQuery q) {
        return switch (q.kind()) {
            case SERVICE -> "nomadService";
            case SERVICES -> "nomadServices";
            case VAR -> "nomadVar";
            case VAR_EXISTS -> "nomadVarExists";
            case VAR_LIST -> "nomadVarList";
            case VAR_LIST_SAFE -> "nomadVarListSafe";
        };
    }

    /** Why a function cannot run on one node (it needs Consul, Vault, ...), or null. */
    static String refusal(String name) {
        String system = REFUSED.get(name);
        if (system == null) {
            return null;
        }
        return "function \"" + name + "\" needs " + system + ", which Drover does not have (one node, no Consul or Vault)";
    }

    static final Set<String> NAMES = union(Set.of("and", "or", "not", "len", "index", "print", "printf", "println",
            "eq", "ne", "lt", "le", "gt", "ge", "env", "envOrDefault", "file", "timestamp", "parseJSON", "toJSON",
            "toJSONPretty", "toLower", "toUpper", "toTitle", "trimSpace", "trim", "trimPrefix", "trimSuffix",
            "split", "join", "replaceAll", "contains", "containsAny", "containsAll", "hasPrefix", "hasSuffix", "add",
            "subtract", "multiply", "divide", "modulo", "minimum", "maximum", "base64Encode", "base64Decode",
            "base64URLEncode", "base64URLDecode", "parseInt", "parseFloat", "parseBool", "parseUint", "indent",
            "regexMatch", "regexReplaceAll", "html", "js", "urlquery", "sha256Hex", "md5sum", "slice",
            "executeTemplate", "parseYAML", "toYAML", "sockaddr", "parseJSONList", "nomadService", "nomadServices",
            "nomadVar", "nomadVarExists", "nomadVarList", "nomadVarListSafe"),
            SprigFuncs.NAMES);

    private static final com.fasterxml.jackson.databind.ObjectMapper YAML =
            new com.fasterxml.jackson.databind.ObjectMapper(new com.fasterxml.jackson.dataformat.yaml.YAMLFactory());

    private static Set<String> union(Set<String> a, Set<String> b) {
        java.util.HashSet<String> all = new java.util.HashSet<>(a);
        all.addAll(b);
        return Set.copyOf(all);
    }

    static Fn of(String name, Env env, Map<String, Fn> extra) {
        Fn fn = extra.get(name);
        if (fn != null) {
            return fn;
        }
        fn = SprigFuncs.of(name, env);
        if (fn != null) {
            return fn;
        }
        return switch (name) {
            case "nomadService" -> a -> {
                if (a.size() == 1) {
                    return env.nomad(NomadQuery.service(String.valueOf(a.get(0)), 0, null));
                }
                if (a.size() == 3) {
                    int count = Values.number(a.get(0), name).intValue();
                    if (count < 1) {
                        throw new TemplateException("nomadService: the count must be at least 1, found " + count);
                    }
                    return env.nomad(NomadQuery.service(String.valueOf(a.get(2)), count, String.valueOf(a.get(1))));
                }
                throw new TemplateException("nomadService: expected 1 or 3 arguments (\"name\", or count \"key\" "
                        + "\"name\"), found " + a.size());
            };
            case "nomadServices" -> a -> {
                if (a.size() > 1) {
                    throw new TemplateException("nomadServices: expected at most 1 argument, found " + a.size());
                }
                return env.nomad(NomadQuery.services(a.isEmpty() ? "" : String.valueOf(a.get(0))));
            };
            case "nomadVar" -> a -> env.nomad(NomadQuery.variable(NomadQuery.Kind.VAR, str(arg(a, 0, 1, name))));
            case "nomadVarExists" -> a -> env.nomad(NomadQuery.variable(NomadQuery.Kind.VAR_EXISTS,
                    str(arg(a, 0, 1, name))));
            case "nomadVarList", "nomadVarListSafe" -> a -> {
                if (a.size() > 1) {
                    throw new TemplateException(name + ": expected at most 1 argument (\"prefix\"), found " + a.size());
                }
                return env.nomad(NomadQuery.variable(name.equals("nomadVarList") ? NomadQuery.Kind.VAR_LIST
                        : NomadQuery.Kind.VAR_LIST_SAFE, a.isEmpty() ? "" : str(a.get(0))));
            };
            case "not" -> a -> !Values.truth(arg(a, 0, 1, name));
            case "len" -> a -> {
                Object v = arg(a, 0, 1, name);
                if (v instanceof String s) {
                    return (long) s.getBytes(StandardCharsets.UTF_8).length;
                }
                if (v instanceof List<?> l) {
                    return (long) l.size();
                }
                if (v instanceof Map<?, ?> m) {
                    return (long) m.size();
                }
                throw new TemplateException("len of " + Values.print(v));
            };
            case "index" -> a -> {
                Object v = a.get(0);
                for (Object k : a.subList(1, a.size())) {
                    if (v instanceof List<?> l) {
                        int i = Values.number(k, name).intValue();
                        if (i < 0 || i >= l.size()) {
                            throw new TemplateException("index out of range: " + i);
                        }
                        v = l.get(i);
                    } else if (v instanceof Map<?, ?> m) {
                        v = m.get(String.valueOf(k));
                    } else {
                        throw new TemplateException("can't index item of type " + Values.print(v));
                    }
                }
                return v;
            };
            case "print" -> a -> {
                StringBuilder b = new StringBuilder();
                for (int i = 0; i < a.size(); i++) {
                    boolean space = i > 0 && !(a.get(i) instanceof String) && !(a.get(i - 1) instanceof String);
                    b.append(space ? " " : "").append(Values.print(a.get(i)));
                }
                return b.toString();
            };
            case "println" -> a -> String.join(" ", a.stream().map(Values::print).toList()) + "\n";
            case "printf" -> a -> Printf.format(String.valueOf(arg(a, 0, -1, name)), a.subList(1, a.size()));
            case "eq" -> a -> {
                Object x = a.get(0);
                for (Object y : a.subList(1, a.size())) {
                    if (Compare.equal(x, y)) {
                        return true;
                    }
                }
                return false;
            };
            case "ne" -> a -> !Compare.equal(arg(a, 0, 2, name), a.get(1));
            case "lt" -> a -> Compare.order(arg(a, 0, 2, name), a.get(1)) < 0;
            case "le" -> a -> Compare.order(arg(a, 0, 2, name), a.get(1)) <= 0;
            case "gt" -> a -> Compare.order(arg(a, 0, 2, name), a.get(1)) > 0;
            case "ge" -> a -> Compare.order(arg(a, 0, 2, name), a.get(1)) >= 0;
            case "env" -> a -> {
                String v = env.env(str(a, 0, 1, name));
                return v == null ? "" : v;
            };
            case "envOrDefault" -> a -> {
                String v = env.env(str(a, 0, 2, name));
                return v == null || v.isEmpty() ? str(a, 1, 2, name) : v;
            };
            case "file" -> a -> env.file(str(a, 0, 1, name));
            case "timestamp" -> a -> a.isEmpty() ? DateTimeFormatter.ISO_INSTANT.format(
                    env.now().atZone(ZoneOffset.UTC).withNano(0)) : GoTime.format(env.now(), str(a, 0, 1, name));
            case "parseJSON" -> a -> {
                try {
                    return JSON.readValue(str(a, 0, 1, name), Object.class);
                } catch (com.fasterxml.jackson.core.JsonProcessingException e) {
                    throw new TemplateException("parseJSON: " + e.getOriginalMessage());
                }
            };
            case "parseJSONList" -> a -> {
                Object v = Funcs.of("parseJSON", env, extra).call(a);
                if (!(v instanceof List<?>)) {
                    throw new TemplateException("parseJSONList: the JSON is not a list");
                }
                return v;
            };
            case "parseYAML" -> a -> {
                String text = str(a, 0, 1, name);
                if (text.isBlank()) {
                    return new java.util.LinkedHashMap<String, Object>();
                }
                try {
                    return YAML.readValue(text, Object.class);
                } catch (java.io.IOException e) {
                    String m = e instanceof com.fasterxml.jackson.core.JsonProcessingException j ? j.getOriginalMessage()
                            : e.getMessage();
                    m = String.valueOf(m).replaceAll("\\s+", " ").strip();
                    throw new TemplateException("parseYAML: " + (m.length() > 200 ? m.substring(0, 200) : m));
                }
            };
            case "toYAML" -> a -> {
                try {
                    return YAML.writeValueAsString(arg(a, 0, 1, name)).replaceFirst("^---\\n", "").stripTrailing();
                } catch (java.io.IOException e) {
                    throw new TemplateException(name + ": " + e.getMessage());
                }
            };
            case "sockaddr" -> a -> Sockaddr.eval(str(a, 0, 1, name));
            case "toJSON", "toJSONPretty" -> a -> {
                try {
                    Object v = arg(a, 0, 1, name);
                    return name.equals("toJSON") ? JSON.writeValueAsString(v)
                            : JSON.writerWithDefaultPrettyPrinter().writeValueAsString(v);
                } catch (java.io.IOException e) {
                    throw new TemplateException(name + ": " + e.getMessage());
                }
            };
            case "toLower" -> str1(name, s -> s.toLowerCase(Locale.ROOT));
            case "toUpper" -> str1(name, s -> s.toUpperCase(Locale.ROOT));
            case "toTitle" -> str1(name, Funcs::title);
            case "trimSpace" -> str1(name, String::strip);
            case "trim" -> a -> trim(str(a, 1, 2, name), str(a, 0, 2, name), true, true);
            case "trimPrefix" -> a -> {
                String s = str(a, 1, 2, name);
                String p = str(a, 0, 2, name);
                return s.startsWith(p) ? s.substring(p.length()) : s;
            };
            case "trimSuffix" -> a -> {
                String s = str(a, 1, 2, name);
                String p = str(a, 0, 2, name);
                return s.endsWith(p) ? s.substring(0, s.length() - p.length()) : s;
            };
            case "split" -> a -> {
                String sep = str(a, 0, 2, name);
                String s = str(a, 1, 2, name);
                List<Object> out = new ArrayList<>();
                if (s.isEmpty()) {
                    return out;
                }
                int from = 0;
                for (int i; !sep.isEmpty() && (i = s.indexOf(sep, from)) >= 0; from = i + sep.length()) {
                    out.add(s.substring(from, i));
                }
                out.add(s.substring(from));
                return out;
            };
            case "join" -> a -> {
                String sep = str(a, 0, 2, name);
                Object l = a.get(1);
                if (!(l instanceof List<?> list)) {
                    throw new TemplateException("join: " + Values.print(l) + " is not a list");
                }
                return String.join(sep, list.stream().map(Values::print).toList());
            };
            case "replaceAll" -> a -> str(a, 2, 3, name).replace(str(a, 0, 3, name), str(a, 1, 3, name));
            case "contains" -> a -> str(a, 1, 2, name).contains(str(a, 0, 2, name));
            case "hasPrefix" -> a -> str(a, 1, 2, name).startsWith(str(a, 0, 2, name));
            case "hasSuffix" -> a -> str(a, 1, 2, name).endsWith(str(a, 0, 2, name));
            case "containsAny", "containsAll" -> a -> {
                Object needles = a.get(0);
                Object hay = a.get(1);
                if (!(needles instanceof List<?> n) || !(hay instanceof List<?> h)) {
                    throw new TemplateException(name + " takes two lists");
                }
                return name.equals("containsAny") ? n.stream().anyMatch(h::contains) : h.containsAll(n);
            };
            case "add", "subtract", "multiply", "divide", "modulo", "minimum", "maximum" -> a -> Math2.apply(name,
                    arg(a, 0, 2, name), a.get(1));
            case "base64Encode" -> str1(name, s -> Base64.getEncoder().encodeToString(s.getBytes(
                    StandardCharsets.UTF_8)));
            case "base64URLEncode" -> str1(name, s -> Base64.getUrlEncoder().encodeToString(s.getBytes(
                    StandardCharsets.UTF_8)));
            case "base64Decode", "base64URLDecode" -> a -> {
                try {
                    var d = name.equals("base64Decode") ? Base64.getDecoder() : Base64.getUrlDecoder();
                    return new String(d.decode(str(a, 0, 1, name)), StandardCharsets.UTF_8);
                } catch (IllegalArgumentException e) {
                    throw new TemplateException(name + ": " + e.getMessage());
                }
            };
            case "parseInt", "parseUint" -> a -> {
                try {
                    return Long.parseLong(str(a, 0, 1, name).trim());
                } catch (NumberFormatException e) {
                    throw new TemplateException(name + ": \"" + a.get(0) + "\" is not an integer");
                }
            };
            case "parseFloat" -> a -> {
                try {
                    return Double.parseDouble(str(a, 0, 1, name).trim());
                } catch (NumberFormatException e) {
                    throw new TemplateException(name + ": \"" + a.get(0) + "\" is not a number");
                }
            };
            case "parseBool" -> a -> switch (str(a, 0, 1, name).trim()) {
                case "1", "t", "T", "true", "TRUE", "True" -> true;
                case "0", "f", "F", "false", "FALSE", "False" -> false;
                default -> throw new TemplateException("parseBool: \"" + a.get(0) + "\" is not a bool");
            };
            case "indent" -> a -> {
                String pad = " ".repeat(Values.number(arg(a, 0, 2, name), name).intValue());
                return pad + str(a, 1, 2, name).replace("\n", "\n" + pad);
            };
            case "regexMatch" -> a -> java.util.regex.Pattern.compile(str(a, 0, 2, name))
                    .matcher(str(a, 1, 2, name)).find();
            case "regexReplaceAll" -> a -> java.util.regex.Pattern.compile(str(a, 0, 3, name))
                    .matcher(str(a, 2, 3, name)).replaceAll(str(a, 1, 3, name).replace("${", "$").replaceAll(
                            "\\$(\\d)", "\\$$1"));
            case "html" -> str1(name, s -> s.replace("&", "&amp;").replace("<", "&lt;").replace(">", "&gt;")
                    .replace("\"", "&#34;").replace("'", "&#39;"));
            case "js" -> str1(name, s -> s.replace("\\", "\\\\").replace("'", "\\'").replace("\"", "\\\"")
                    .replace("<", "\\u003C").replace(">", "\\u003E"));
            case "urlquery" -> str1(name, s -> java.net.URLEncoder.encode(s, StandardCharsets.UTF_8));
            case "sha256Hex" -> str1(name, s -> digest("SHA-256", s));
            case "md5sum" -> str1(name, s -> digest("MD5", s));
            case "slice" -> a -> {
                Object v = a.get(0);
                int from = a.size() > 1 ? Values.number(a.get(1), name).intValue() : 0;
                if (v instanceof String s) {
                    int to = a.size() > 2 ? Values.number(a.get(2), name).intValue() : s.length();
                    return s.substring(from, to);
                }
                if (v instanceof List<?> l) {
                    int to = a.size() > 2 ? Values.number(a.get(2), name).intValue() : l.size();
                    return new ArrayList<>(l.subList(from, to));
                }
                throw new TemplateException("slice of " + Values.print(v));
            };
            default -> a -> {
                throw new TemplateException("function \"" + name + "\" is not supported");
            };
        };
    }

    private static Fn str1(String name, Function<String, Object> f) {
        return a -> f.apply(str(a, 0, 1, name));
    }

    private static Object arg(List<Object> a, int i, int n, String name) throws TemplateException {
        if (n >= 0 && a.size() != n) {
            throw new TemplateException("wrong number of args for " + name + ": want " + n + " got " + a.size());
        }
        if (a.size() <= i) {
            throw new TemplateException("wrong number of args for " + name);
        }
        return a.get(i);
    }

    private static String str(List<Object> a, int i, int n, String name) throws TemplateException {
        Object v = arg(a, i, n, name);
        return v instanceof String s ? s : Values.print(v);
    }

    private static String title(String s) {
        StringBuilder b = new StringBuilder(s.length());
        boolean start = true;
        for (char c : s.toCharArray()) {
            b.append(start ? Character.toTitleCase(c) : c);
            start = Character.isWhitespace(c);
        }
        return b.toString();
    }

    private static String trim(String s, String cut, boolean left, boolean right) {
        int from = 0;
        int to = s.length();
        while (left && from < to && cut.indexOf(s.charAt(from)) >= 0) {
            from++;
        }
        while (right && to > from && cut.indexOf(s.charAt(to - 1)) >= 0) {
            to--;
        }
        return s.substring(from, to);
    }

    private static String digest(String algo, String s) {
        try {
            return java.util.HexFormat.of().formatHex(java.security.MessageDigest.getInstance(algo)
                    .digest(s.getBytes(StandardCharsets.UTF_8)));
        } catch (java.security.NoSuchAlgorithmException e) {
            throw new IllegalStateException(e);
        }
    }
}
