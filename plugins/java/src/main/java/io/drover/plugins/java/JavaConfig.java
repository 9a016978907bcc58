package io.drover.plugins.java;

import io.drover.driver.api.ConfigProblem;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.ConfigValidation;
import java.io.File;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;

/**
 * A java task's {@code config} block, Nomad's java driver keys: {@code jar_path} or {@code class} (exactly one),
 * {@code class_path} (with {@code class}; a string of {@code :}-separated entries as in Nomad, or a list),
 * {@code jvm_options} (list), {@code args} (list), {@code user} (the user the JVM runs as; Nomad has it on the
 * task, Drover in the config: see {@link TaskUsers}), {@code pid_mode} and {@code ipc_mode} ({@code "private"} or
 * {@code "host"}, read by the driver: {@link io.drover.process.IsolationModes}); and Drover's own {@code java_home} (an absolute path;
 * default the JDK running Drover).
 *
 * <p>Paths: a relative {@code jar_path} or {@code class_path} entry is relative to the task directory (Nomad:
 * artifacts land there); an absolute one is used as is; one starting with {@value #HOME_REF} is relative to
 * Drover's home (the repository root, the system property {@code drover.home} that the {@code ./drover}
 * launcher sets), so that a job shipped with Drover can name files the build produced, such as the sample
 * {@code sample-jobs/java.hcl}. A task's {@code env} may set {@code DROVER_HOME} itself: the host interpolates
 * it before the driver sees the config. Immutable; pure.
 */
record JavaConfig(String jarPath, String mainClass, List<String> classPath, List<String> jvmOptions,
        List<String> args, String javaHome, String user) {
    static final String HOME_REF = "${DROVER_HOME}";
    static final String HOME_PROPERTY = "drover.home";

    /** One problem per bad or unknown key, sorted by key; empty when valid. */
    static List<ConfigProblem> validate(Map<String, Object> config, String droverHome) {
        List<ConfigProblem> problems = new ArrayList<>();
        parse(config, droverHome, problems);
        return problems;
    }

    /** @throws IllegalArgumentException naming every problem */
    static JavaConfig parse(Map<String, Object> config, String droverHome) {
        List<ConfigProblem> problems = new ArrayList<>();
        JavaConfig parsed = parse(config, droverHome, problems);
        if (!problems.isEmpty()) {
            StringBuilder sb = new StringBuilder("invalid java config:");
            problems.forEach(p -> sb.append(' ').append(p.key()).append(": ").append(p.message()).append(';'));
            throw new IllegalArgumentException(sb.substring(0, sb.length() - 1));
        }
        return parsed;
    }

    /**
     * The child JVM's argv after {@code java}: {@code <jvm_options> -jar <jar> <args>} or
     * {@code <jvm_options> [-cp <class_path>] <class> <args>}, paths resolved against {@code taskDir} and Drover's
     * home.
     */
    List<String> javaArgs(Path taskDir, String droverHome) {
        List<String> argv = new ArrayList<>(jvmOptions);
        if (jarPath != null) {
            argv.add("-jar");
            argv.add(resolve(jarPath, taskDir, droverHome));
        } else {
            if (!classPath.isEmpty()) {
                List<String> entries = new ArrayList<>();
                classPath.forEach(e -> entries.add(resolve(e, taskDir, droverHome)));
                argv.add("-cp");
                argv.add(String.join(File.pathSeparator, entries));
            }
            argv.add(mainClass);
        }
        argv.addAll(args);
        return argv;
    }

    /** The JDK to run: {@code java_home}, else {@code defaultHome} (the JDK running Drover). */
    Path javaHomeOr(String defaultHome) {
        return Path.of(javaHome != null ? javaHome : defaultHome);
    }

    private static String resolve(String path, Path taskDir, String droverHome) {
        if (path.startsWith(HOME_REF)) {
            String rest = path.substring(HOME_REF.length()).replaceFirst("^/+", "");
            return Path.of(droverHome).resolve(rest).normalize().toString();
        }
        return taskDir.resolve(path).normalize().toString(); // an absolute path resolves to itself
    }

    /** The java driver's task config: Nomad's java driver keys, plus {@code java_home} and {@code user}. */
    static final ConfigSchema SCHEMA = ConfigSchema.of(
            Attribute.string("jar_path").describe("the jar to run with java -jar (or class)"),
            Attribute.string("class").describe("the main class to run (or jar_path)"),
            Attribute.any("class_path").describe("with class: entries separated by " + File.pathSeparator
                    + ", or a list"),
            Attribute.stringList("jvm_options").describe("options of the JVM, before the class or jar"),
            Attribute.stringList("args").describe("arguments of the program"),
            Attribute.string("java_home").describe("the JDK to run (an absolute path); default Drover's"),
            Attribute.string("user").describe("the user the JVM runs as; default the plugin's default_user"),
            io.drover.process.IsolationModes.taskAttribute(io.drover.process.IsolationModes.PID_MODE),
            io.drover.process.IsolationModes.taskAttribute(io.drover.process.IsolationModes.IPC_MODE));

    /**
     * The schema's problems (unknown keys, types; values converted as HCL2 does), then the rules it cannot state,
     * on the converted block.
     */
    private static JavaConfig parse(Map<String, Object> raw, String droverHome, List<ConfigProblem> out) {
        Map<String, ConfigProblem> problems = new TreeMap<>();
        ConfigValidation checked = SCHEMA.validate(raw, "the java driver");
        checked.problems().forEach(p -> problems.putIfAbsent(p.key().replaceFirst("\\[\\d+]$", ""), p));
        Map<String, Object> config = new java.util.HashMap<>(raw);
        if (checked.valid()) {
            config = checked.view().asMap();
        } else {
            problems.keySet().forEach(config::remove);
        }
        String jarPath = string(config, "jar_path", problems);
        String mainClass = string(config, "class", problems);
        List<String> classPath = new ArrayList<>();
        Object rawClassPath = config.get("class_path");
        if (rawClassPath instanceof String s && !s.isBlank()) {
            for (String entry : s.split(File.pathSeparator)) {
                if (!entry.isEmpty()) {
                    classPath.add(entry);
                }
            }
        } else if (rawClassPath instanceof List<?> list && !list.isEmpty()
                && list.stream().allMatch(e -> e instanceof String s && !s.isEmpty())) {
            list.forEach(e -> classPath.add((String) e));
        } else if (rawClassPath != null) {
            problems.put("class_path", new ConfigProblem("class_path",
                    "must be a non-empty string (entries separated by " + File.pathSeparator
                            + ") or a list of non-empty strings"));
        }
        List<String> jvmOptions = strings(config, "jvm_options", problems);
        List<String> args = strings(config, "args", problems);
        String javaHome = string(config, "java_home", problems);
        String user = string(config, "user", problems);
        if (javaHome != null && !Path.of(javaHome).isAbsolute()) {
            problems.put("java_home", new ConfigProblem("java_home", "must be an absolute path, got \"" + javaHome
                    + "\""));
        }

        if (raw.get("jar_path") == null && raw.get("class") == null) {
            problems.putIfAbsent("jar_path", new ConfigProblem("jar_path", "jar_path or class is required"));
        } else if (raw.get("jar_path") != null && raw.get("class") != null) {
            problems.putIfAbsent("class", new ConfigProblem("class",
                    "cannot be used with jar_path (the jar's manifest names its main class)"));
        }
        if (raw.get("jar_path") != null && raw.get("class_path") != null) {
            problems.putIfAbsent("class_path", new ConfigProblem("class_path",
                    "cannot be used with jar_path (java -jar ignores -cp; use the jar's Class-Path manifest entry)"));
        }
        boolean usesHome = (jarPath != null && jarPath.startsWith(HOME_REF))
                || classPath.stream().anyMatch(e -> e.startsWith(HOME_REF));
        if (usesHome && (droverHome == null || droverHome.isBlank())) {
            String key = jarPath != null && jarPath.startsWith(HOME_REF) ? "jar_path" : "class_path";
            problems.putIfAbsent(key, new ConfigProblem(key, HOME_REF + " is unknown: the system property "
                    + HOME_PROPERTY + " is not set (the ./drover launcher sets it to the repository root)"));
        }
        out.addAll(problems.values());
        return new JavaConfig(jarPath, mainClass, List.copyOf(classPath), jvmOptions, args, javaHome, user);
    }

    private static String string(Map<String, Object> config, String key, Map<String, ConfigProblem> problems) {
        Object raw = config.get(key);
        if (raw == null) {
            return null;
        }
        if (raw instanceof String s && !s.isBlank()) {
            return s;
        }
        problems.put(key, new ConfigProblem(key, "must be a non-empty string"));
        return null;
    }

    private static List<String> strings(Map<String, Object> config, String key, Map<String, ConfigProblem> problems) {
        Object raw = config.get(key);
        if (raw == null) {
            return List.of();
        }
        if (raw instanceof List<?> list && list.stream().allMatch(a -> a instanceof String)) {
            List<String> out = new ArrayList<>();
            list.forEach(a -> out.add((String) a));
            return List.copyOf(out);
        }
        problems.put(key, new ConfigProblem(key, "must be a list of strings"));
        return List.of();
    }
}
