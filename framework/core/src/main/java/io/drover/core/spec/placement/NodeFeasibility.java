package io.drover.core.spec.placement;

import io.drover.core.spec.Constraint;
import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import java.math.BigDecimal;
import java.util.ArrayList;
import java.util.Arrays;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.regex.PatternSyntaxException;
import java.util.stream.Collectors;

/**
 * What Nomad's scheduler decides, decided for this one node: which of a job's groups the node can place
 * (scheduler/feasible.go's constraint checker), and how many allocations of each. A constraint the node fails
 * keeps its whole group off the node; {@code distinct_hosts} (and {@code distinct_property}, whose value counts
 * the allocations one value of the property may hold, 1 by default) allows that many allocations of the group
 * here, the rest are not placed — as Nomad places them on no other node when it has none.
 *
 * <p>Targets are {@code ${attr.<name>}}, {@code ${node.datacenter}}, {@code ${node.class}},
 * {@code ${node.unique.id}}, {@code ${node.unique.name}}, {@code ${node.pool}}, {@code ${meta.<key>}}; anything
 * else is a literal. A target the node does not have fails every operator but {@code is_not_set}. A group's
 * host volumes must be among the node's ({@link HostVolumeCheck}), else the group is not placed with Nomad's
 * {@code missing compatible host volumes}. Pure and thread-safe.
 *
 * @param targets the node's values by target name without {@code ${}}: {@code attr.kernel.name},
 *     {@code node.datacenter}, {@code meta.rack}, ...
 * @param hostVolumes the node's host volumes: name to read-only
 */
public record NodeFeasibility(Map<String, String> targets, Map<String, Boolean> hostVolumes) {
    public NodeFeasibility {
        targets = Map.copyOf(targets);
        hostVolumes = Map.copyOf(hostVolumes);
    }

    /** A node without host volumes. */
    public NodeFeasibility(Map<String, String> targets) {
        this(targets, Map.of());
    }

    /** This node with {@code volumes} (name to read-only) as its host volumes. */
    public NodeFeasibility withHostVolumes(Map<String, Boolean> volumes) {
        return new NodeFeasibility(targets, volumes);
    }

    /**
     * One group's placement on this node.
     *
     * @param placeable how many of its {@code count} allocations this node takes
     * @param filtered the constraints that kept allocations off the node, as Nomad prints them
     *     ({@code ${attr.kernel.name} = windows}), empty when every allocation is placed
     */
    public record GroupPlacement(String group, int count, int placeable, List<String> filtered) {
        public GroupPlacement {
            filtered = List.copyOf(filtered);
        }

        /** Nomad's lines for what was not placed, empty when every allocation is. */
        public List<String> failures() {
            if (placeable >= count) {
                return List.of();
            }
            int missing = count - placeable;
            List<String> out = new ArrayList<>();
            out.add("Task Group \"" + group + "\" (failed to place " + missing + " allocation"
                    + (missing == 1 ? "" : "s") + "):");
            filtered.forEach(f -> out.add("  * Constraint \"" + f + "\": 1 nodes excluded by filter"
                    + (f.equals(MISSING_NETWORK) ? " (" + MISSING_NETWORK_WHY + ")" : "")));
            return out;
        }
    }

    /**
     * Nomad's scheduler's words for a node that lacks the group's network mode (its fingerprint found no bridge
     * network or CNI config): this node has only host networking.
     */
    public static final String MISSING_NETWORK = "missing network";

    public static final String MISSING_NETWORK_WHY = "this node has host networking only: network modes bridge and cni/* "
            + "need the CNI plugins (bridge, host-local, portmap, loopback) and a network namespace per allocation, "
            + "which Drover does not set up";

    /** Each group of the job, in order, with what this node places of it. */
    public List<GroupPlacement> place(Job job) {
        List<GroupPlacement> out = new ArrayList<>();
        for (TaskGroup g : job.groups()) {
            int count = job.type().perNode() ? Math.min(1, g.count()) : g.count();
            int placeable = count;
            List<String> filtered = new ArrayList<>();
            if (!g.runtime().network().mode().equals("host")) {
                placeable = 0;
                filtered.add(MISSING_NETWORK);
            }
            for (Constraint c : job.constraints()) {
                if (!c.appliesTo(g.name())) {
                    continue;
                }
                int allowed = allowed(c);
                if (allowed < placeable) {
                    placeable = allowed;
                    filtered.add(c.toString());
                }
            }
            int withVolumes = HostVolumeCheck.placeable(g, count, hostVolumes);
            if (withVolumes < placeable) {
                placeable = withVolumes;
                filtered.add(HostVolumeCheck.FILTER);
            }
            out.add(new GroupPlacement(g.name(), count, placeable, filtered));
        }
        return out;
    }

    /** How many allocations of a group {@code c} lets this node hold: 0, a limit, or all of them. */
    private int allowed(Constraint c) {
        return switch (c.operand()) {
            case "distinct_hosts" -> 1;
            case "distinct_property" -> resolve(c.lTarget()).isEmpty() ? 0
                    : c.rTarget().isEmpty() ? 1 : Integer.parseInt(c.rTarget());
            default -> holds(c) ? Integer.MAX_VALUE : 0;
        };
    }

    /**
     * The job as this node places it: each group's count cut to what the node takes (0 for a group whose
     * constraints it fails, 1 for a system job's group). The job itself when every allocation fits.
     */
    public static Job placeable(Job job, List<GroupPlacement> placement) {
        boolean whole = true;
        List<TaskGroup> groups = new ArrayList<>();
        for (TaskGroup g : job.groups()) {
            int n = placement.stream().filter(p -> p.group().equals(g.name())).findFirst()
                    .map(p -> Math.min(p.count(), p.placeable())).orElse(g.count());
            whole &= n == g.count();
            groups.add(n == g.count() ? g : g.withCount(n));
        }
        return whole ? job : job.withGroups(groups);
    }

    /** Whether this node satisfies {@code c} (an operator other than the distinct ones). */
    public boolean holds(Constraint c) {
        Optional<String> left = resolve(c.lTarget());
        String op = c.operand();
        if (op.equals("is_set")) {
            return left.isPresent();
        }
        if (op.equals("is_not_set")) {
            return left.isEmpty();
        }
        Optional<String> right = resolve(c.rTarget());
        if (left.isEmpty() || right.isEmpty()) {
            return false;
        }
        String l = left.get();
        String r = right.get();
        return switch (op) {
            case "=", "==", "is" -> l.equals(r);
            case "!=", "not" -> !l.equals(r);
            case ">", ">=", "<", "<=" -> order(op, compare(l, r));
            case "regexp" -> regexp(l, r);
            case "set_contains", "set_contains_all" -> set(l).containsAll(set(r));
            case "set_contains_any" -> set(r).stream().anyMatch(set(l)::contains);
            case "version" -> VersionConstraint.satisfied(r, l, false);
            case "semver" -> VersionConstraint.satisfied(r, l, true);
            default -> false;
        };
    }

    /** The value of a target: {@code ${...}} looked up on the node (empty when it has none), else the literal. */
    Optional<String> resolve(String target) {
        if (target.startsWith("${") && target.endsWith("}")) {
            return Optional.ofNullable(targets.get(target.substring(2, target.length() - 1)));
        }
        return Optional.of(target);
    }

    private static boolean order(String op, int cmp) {
        return switch (op) {
            case ">" -> cmp > 0;
            case ">=" -> cmp >= 0;
            case "<" -> cmp < 0;
            default -> cmp <= 0;
        };
    }

    /** Numbers by value when both sides are numbers (Nomad compares ints and floats so), else lexically. */
    private static int compare(String l, String r) {
        try {
            return new BigDecimal(l.trim()).compareTo(new BigDecimal(r.trim()));
        } catch (NumberFormatException e) {
            return l.compareTo(r);
        }
    }

    /** Most characters a {@code regexp} match may read before it is given up as not matching. */
    static final int REGEXP_STEPS = 100_000;

    /**
     * Go's {@code MatchString}: a match anywhere. Java's engine backtracks, where Go's (RE2) is linear, so a pattern
     * from a job ({@code (a+)+$}) could hold the registering thread for minutes on a short value: the match reads
     * the value through {@link BoundedChars}, and one that reads more than {@value #REGEXP_STEPS} characters is
     * given up as not matching.
     */
    static boolean regexp(String value, String pattern) {
        try {
            return Pattern.compile(pattern).matcher(new BoundedChars(value, new int[] {REGEXP_STEPS})).find();
        } catch (PatternSyntaxException | BoundedChars.Exhausted e) {
            return false;
        }
    }

    /** A string whose every character read costs a step of a shared budget. */
    private record BoundedChars(String s, int[] budget) implements CharSequence {
        static final class Exhausted extends RuntimeException {
            Exhausted() {
                super(null, null, false, false);
            }
        }

        @Override
        public int length() {
            return s.length();
        }

        @Override
        public char charAt(int index) {
            if (--budget[0] < 0) {
                throw new Exhausted();
            }
            return s.charAt(index);
        }

        @Override
        public CharSequence subSequence(int start, int end) {
            return new BoundedChars(s.substring(start, end), budget);
        }

        @Override
        public String toString() {
            return s;
        }
    }

    private static Set<String> set(String csv) {
        return Arrays.stream(csv.split(",")).map(String::trim).filter(s -> !s.isEmpty())
                .collect(Collectors.toSet());
    }

    /** The targets of a node: its attributes as {@code attr.*}, its fields as {@code node.*}, meta as {@code meta.*}. */
    public static NodeFeasibility of(Map<String, String> attributes, String id, String name, String datacenter,
            String nodeClass, String pool, Map<String, String> meta) {
        Map<String, String> t = new LinkedHashMap<>();
        attributes.forEach((k, v) -> t.put("attr." + k, v));
        t.put("node.unique.id", id);
        t.put("node.unique.name", name);
        t.put("node.datacenter", datacenter);
        t.put("node.class", nodeClass);
        t.put("node.pool", pool);
        t.put("node.region", "global");
        meta.forEach((k, v) -> t.put("meta." + k, v));
        return new NodeFeasibility(t);
    }
}
