package io.drover.core.vars;

import java.util.ArrayList;
import java.util.List;
import java.util.regex.Pattern;

/**
 * Nomad's rules for variable paths and item keys, and the workload-identity rule of what a task may read.
 * Stateless, thread-safe.
 */
public final class VariablePaths {
    /** Nomad's {@code validVariablePath}: URL-safe letters, digits and {@code -_~/} (so never "." or ".."). */
    private static final Pattern PATH = Pattern.compile("^[a-zA-Z0-9\\-_~/]{1,128}$");
    public static final int MAX_PATH = 128;
    /** Nomad's limit on a variable's items: keys and values together. */
    public static final int MAX_SIZE = 65536;

    private VariablePaths() {}

    /** Every problem of {@code path}, one line each, each naming the field; empty when it is valid. */
    public static List<String> problems(String path) {
        List<String> out = new ArrayList<>();
        if (path == null || path.isEmpty()) {
            out.add("Path: a variable needs a path");
            return out;
        }
        if (!PATH.matcher(path).matches()) {
            out.add("Path: invalid path \"" + abbreviate(path) + "\" (1 to " + MAX_PATH
                    + " of the characters a-z A-Z 0-9 - _ ~ /)");
            return out;
        }
        String[] parts = path.split("/", -1);
        if (parts[0].equals("nomad")) {
            boolean ok = parts.length > 1 && (parts[1].equals("jobs") || parts[1].equals("sentinel")
                    || (parts[1].equals("job-templates") && parts.length == 3));
            if (!ok) {
                out.add("Path: \"" + path + "\" is reserved; under nomad/ write to nomad/jobs, nomad/sentinel or "
                        + "nomad/job-templates/NAME");
            }
        }
        return out;
    }

    /** Every problem of a variable's items, one line each. */
    public static List<String> itemProblems(java.util.Map<String, String> items) {
        List<String> out = new ArrayList<>();
        if (items == null || items.isEmpty()) {
            out.add("Items: empty variables are invalid (a variable needs at least one item)");
            return out;
        }
        long size = 0;
        for (var e : items.entrySet()) {
            if (e.getKey() == null || e.getKey().isEmpty()) {
                out.add("Items: an item has an empty key");
            }
            if (e.getValue() == null) {
                out.add("Items: key \"" + abbreviate(e.getKey()) + "\" has no value (null)");
                continue;
            }
            size += e.getKey().getBytes(java.nio.charset.StandardCharsets.UTF_8).length
                    + e.getValue().getBytes(java.nio.charset.StandardCharsets.UTF_8).length;
        }
        if (size > MAX_SIZE) {
            out.add("Items: variables are limited to 64KiB in total size (found " + size + " bytes)");
        }
        return out;
    }

    /**
     * Whether a task may read {@code path} by its workload identity, Nomad's implicit policy: exactly
     * {@code nomad/jobs}, {@code nomad/jobs/<job>}, {@code nomad/jobs/<job>/<group>} and
     * {@code nomad/jobs/<job>/<group>/<task>}.
     */
    public static boolean taskMayRead(String path, String job, String group, String task) {
        String base = "nomad/jobs";
        return path.equals(base) || path.equals(base + "/" + job) || path.equals(base + "/" + job + "/" + group)
                || path.equals(base + "/" + job + "/" + group + "/" + task);
    }

    private static String abbreviate(String s) {
        return s.length() > 60 ? s.substring(0, 60) + "..." : s;
    }
}
