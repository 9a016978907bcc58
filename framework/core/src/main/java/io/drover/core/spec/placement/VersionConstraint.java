package io.drover.core.spec.placement;

import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Nomad's {@code version} and {@code semver} operators (hashicorp/go-version constraints): a comma-separated list
 * of {@code OP VERSION} clauses, all of which must hold, with {@code =}, {@code !=}, {@code >}, {@code >=},
 * {@code <}, {@code <=} and {@code ~>} (pessimistic: {@code ~> 1.2} is {@code >= 1.2, < 2}; {@code ~> 1.2.3} is
 * {@code >= 1.2.3, < 1.3}). Versions are dot-separated numbers with an optional {@code -prerelease} and
 * {@code +metadata} (ignored); a prerelease sorts before its release. {@code semver} wants exactly three
 * numbers. Pure.
 */
public final class VersionConstraint {
    private static final Pattern CLAUSE = Pattern.compile("\\s*(=|!=|>=|<=|>|<|~>)?\\s*v?([0-9]+(?:\\.[0-9]+)*)"
            + "(?:-([0-9A-Za-z.-]+))?(?:\\+[0-9A-Za-z.-]+)?\\s*");
    private static final Pattern VERSION = Pattern.compile("v?([0-9]+(?:\\.[0-9]+)*)(?:-([0-9A-Za-z.-]+))?"
            + "(?:\\+[0-9A-Za-z.-]+)?");

    private record Version(long[] parts, String pre) {}

    private record Clause(String op, Version v, int written) {}

    private VersionConstraint() {}

    /** Why {@code constraint} is not one, empty when it is. */
    public static Optional<String> problem(String constraint) {
        try {
            clauses(constraint);
            return Optional.empty();
        } catch (IllegalArgumentException e) {
            return Optional.of(e.getMessage());
        }
    }

    /**
     * @param semver whether {@code version} must be a strict three-part semantic version
     * @return whether {@code version} satisfies every clause; false when it is not a version
     */
    public static boolean satisfied(String constraint, String version, boolean semver) {
        Matcher m = VERSION.matcher(version.trim());
        if (!m.matches() || semver && m.group(1).split("\\.").length != 3) {
            return false;
        }
        Version v = new Version(parts(m.group(1)), m.group(2));
        for (Clause c : clauses(constraint)) {
            int cmp = compare(v, c.v());
            boolean ok = switch (c.op()) {
                case "=" -> cmp == 0;
                case "!=" -> cmp != 0;
                case ">" -> cmp > 0;
                case ">=" -> cmp >= 0;
                case "<" -> cmp < 0;
                case "<=" -> cmp <= 0;
                default -> cmp >= 0 && compare(v, pessimisticCeiling(c)) < 0; // ~>
            };
            if (!ok) {
                return false;
            }
        }
        return true;
    }

    private static List<Clause> clauses(String constraint) {
        List<Clause> out = new ArrayList<>();
        for (String part : constraint.split(",", -1)) {
            Matcher m = CLAUSE.matcher(part);
            if (!m.matches()) {
                throw new IllegalArgumentException("not a version constraint: \"" + constraint.trim()
                        + "\" (e.g. \">= 1.2, < 2.0\" or \"~> 1.4\")");
            }
            String op = m.group(1) == null ? "=" : m.group(1);
            out.add(new Clause(op, new Version(parts(m.group(2)), m.group(3)), m.group(2).split("\\.").length));
        }
        return out;
    }

    private static Version pessimisticCeiling(Clause c) {
        long[] p = c.v().parts();
        int keep = Math.max(1, c.written() - 1); // ~> 1.2.3: < 1.3; ~> 1.2: < 2
        long[] ceiling = new long[Math.max(p.length, keep)];
        System.arraycopy(p, 0, ceiling, 0, Math.min(p.length, keep));
        ceiling[keep - 1]++;
        return new Version(ceiling, null);
    }

    private static long[] parts(String dotted) {
        String[] s = dotted.split("\\.");
        long[] out = new long[s.length];
        for (int i = 0; i < s.length; i++) {
            try {
                out[i] = Long.parseLong(s[i]);
            } catch (NumberFormatException e) {
                throw new IllegalArgumentException("version part too large: \"" + s[i] + "\"");
            }
        }
        return out;
    }

    private static int compare(Version a, Version b) {
        int n = Math.max(a.parts().length, b.parts().length);
        for (int i = 0; i < n; i++) {
            long x = i < a.parts().length ? a.parts()[i] : 0;
            long y = i < b.parts().length ? b.parts()[i] : 0;
            if (x != y) {
                return Long.compare(x, y);
            }
        }
        if (a.pre() == null || b.pre() == null) {
            return a.pre() == null ? (b.pre() == null ? 0 : 1) : -1;
        }
        return a.pre().compareTo(b.pre());
    }
}
