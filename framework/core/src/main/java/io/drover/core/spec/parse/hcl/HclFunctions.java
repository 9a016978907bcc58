package io.drover.core.spec.parse.hcl;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.TreeMap;

/**
 * The functions a jobspec may call: those of Nomad's jobspec2 that need no cluster (its {@code Functions}
 * table: strings, collections, numbers, encodings, hashes, UUIDs, time, and the filesystem ones), plus
 * {@code tostring}/{@code tonumber}/{@code tobool}/{@code tolist}/{@code toset}/{@code tomap}, {@code regex},
 * {@code regexall} and {@code timestamp}. The filesystem functions read relative to the job file's directory
 * and only where the reader allows them ({@link #of(Optional)} with a directory: the CLI); the agent, which
 * gets job text over HTTP, has none ("filesystem functions are disabled", as Nomad's agent). Thread-safe.
 */
public final class HclFunctions {
    /** One function: a pure computation on evaluated arguments. */
    @FunctionalInterface
    interface Fn {
        Object apply(List<Object> args) throws ValueException;
    }

    record Def(int min, int max, Fn fn) {}

    private final Map<String, Def> table = new TreeMap<>();
    private final Optional<Path> baseDir;

    private HclFunctions(Optional<Path> baseDir) {
        this.baseDir = baseDir;
        HclStringFunctions.register(this);
        HclCollectionFunctions.register(this);
        HclEncodingFunctions.register(this);
        HclFileFunctions.register(this, baseDir);
    }

    /**
     * The agent's table (no filesystem functions), built once: the agent parses every job it is sent with it, and
     * building its ~80 entries was 2.5 % of what the agent allocated under churn (docs/performance.md, alloc_get,
     * session 12). Never changed after its constructor.
     */
    private static final HclFunctions WITHOUT_FILES = new HclFunctions(Optional.empty());

    /** @param baseDir the job file's directory for {@code file()} and its kin, empty to disable them */
    public static HclFunctions of(Optional<Path> baseDir) {
        return baseDir.isEmpty() ? WITHOUT_FILES : new HclFunctions(baseDir);
    }

    /** Registers a function taking {@code min} to {@code max} arguments ({@code max} -1: any number). */
    void add(String name, int min, int max, Fn fn) {
        table.put(name, new Def(min, max, fn));
    }

    /** The names of every function, sorted. */
    public List<String> names() {
        List<String> names = new java.util.ArrayList<>(table.keySet());
        names.add("can");
        names.add("try");
        java.util.Collections.sort(names);
        return names;
    }

    boolean filesystemAllowed() {
        return baseDir.isPresent();
    }

    Object call(HclExpr.Call c, List<Object> args, HclEvaluator ev, HclScope scope) throws HclSyntaxException {
        Def def = table.get(c.name());
        if (def == null) {
            throw new HclSyntaxException(c.line(), c.col(), "unknown function " + c.name() + "()");
        }
        if (args.size() < def.min() || (def.max() >= 0 && args.size() > def.max())) {
            String want = def.min() == def.max() ? String.valueOf(def.min())
                    : def.max() < 0 ? "at least " + def.min() : def.min() + " to " + def.max();
            throw new HclSyntaxException(c.line(), c.col(), c.name() + "() takes " + want + " argument"
                    + (def.max() == 1 && def.min() == 1 ? "" : "s") + ", got " + args.size());
        }
        try {
            return def.fn().apply(args);
        } catch (ValueException e) {
            throw new HclSyntaxException(c.line(), c.col(), c.name() + "(): " + e.getMessage());
        } catch (ArithmeticException | IllegalArgumentException | IndexOutOfBoundsException e) {
            throw new HclSyntaxException(c.line(), c.col(), c.name() + "(): " + e.getMessage());
        }
    }

    /** {@code try(a, b, ...)}: the first argument that evaluates without error; {@code can(x)}: whether it does. */
    static boolean isLazy(String name) {
        return name.equals("try") || name.equals("can");
    }

    static Object lazy(HclExpr.Call c, HclEvaluator ev, HclScope scope) throws HclSyntaxException {
        if (c.name().equals("can")) {
            if (c.args().size() != 1) {
                throw new HclSyntaxException(c.line(), c.col(), "can() takes 1 argument, got " + c.args().size());
            }
            try {
                ev.eval(c.args().get(0), scope);
                return true;
            } catch (HclSyntaxException e) {
                return false;
            }
        }
        HclSyntaxException last = null;
        for (HclExpr a : c.args()) {
            try {
                return ev.eval(a, scope);
            } catch (HclSyntaxException e) {
                last = e;
            }
        }
        throw new HclSyntaxException(c.line(), c.col(), "try(): no argument could be evaluated"
                + (last == null ? "" : " (last: " + last.getMessage() + ")"));
    }
}
