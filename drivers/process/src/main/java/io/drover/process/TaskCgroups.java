package io.drover.process;

import io.drover.driver.api.TaskResources;
import java.io.IOException;
import java.nio.file.FileAlreadyExistsException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.attribute.BasicFileAttributes;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.stream.Stream;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Per-task cgroup v1 limits on this node, as Nomad's executor sets them (docs/process-supervision.md, "Resource
 * limits"): each run gets {@code <agent's own cgroup>/drover/<allocId>.<task>} in the memory controller and, when
 * mounted apart, the cpu controller, with {@code memory.limit_in_bytes} = {@code memory_max} if set else
 * {@code memory}, {@code memory.soft_limit_in_bytes} = {@code memory} when {@code memory_max} is set, swap off
 * ({@code memory.swappiness} 0) and {@code cpu.shares} = {@code cpu} (MHz, clamped to the kernel's 2..262144).
 *
 * <p>The agent's own cgroups are read from {@code /proc/self/cgroup} (relative to {@code /sys/fs/cgroup/<controller>});
 * job content only names the last path segment, which is checked as a segment, and nothing is followed through a
 * link ({@code lstat} checks, {@code O_NOFOLLOW} opens). Off ({@link #enabled()} false) when the agent's
 * environment has {@code DROVER_TASK_CGROUPS=0}, or the node has no writable v1 memory controller (a v2-only node:
 * not built), said once in the log.
 *
 * <p>Thread-safe and stateless after construction; every method does a few small file operations on cgroupfs (no
 * waiting), so it may run on a start or reaper thread.
 */
public final class TaskCgroups {
    private static final Logger LOG = LoggerFactory.getLogger(TaskCgroups.class);
    /** The agent environment variable that turns task cgroups off when {@code 0}. */
    public static final String ENV = "DROVER_TASK_CGROUPS";
    static final String PARENT = "drover";
    static final long MIN_CPU_SHARES = 2;
    static final long MAX_CPU_SHARES = 262_144;
    /** An empty cgroup younger than this is not swept: another agent on the node may be about to start it. */
    static final Duration SWEEP_GRACE = Duration.ofSeconds(60);

    private static final class Node {
        static final TaskCgroups INSTANCE = detect(System.getenv(ENV), Path.of("/proc/self/cgroup"),
                Path.of("/sys/fs/cgroup"));
    }

    private final Path memoryRoot;
    private final Path cpuRoot;
    private final String off;

    /**
     * @param memoryRoot the agent's memory cgroup (the {@code drover} parent is made in it), null: off
     * @param cpuRoot the agent's cpu cgroup, null: no cpu limit
     * @param off why it is off (when {@code memoryRoot} is null)
     */
    TaskCgroups(Path memoryRoot, Path cpuRoot, String off) {
        this.memoryRoot = memoryRoot;
        this.cpuRoot = memoryRoot == null ? null : cpuRoot;
        this.off = memoryRoot == null ? off : "";
    }

    /** This node's, detected once per JVM (the first call logs whether it is on, sweeps stale cgroups). */
    public static TaskCgroups node() {
        return Node.INSTANCE;
    }

    /** Off, for callers that limit nothing (tests of other things). */
    public static TaskCgroups off(String why) {
        return new TaskCgroups(null, null, why);
    }

    /** Whether runs with resources get cgroups. */
    public boolean enabled() {
        return memoryRoot != null;
    }

    /** Why not {@link #enabled()}, empty when enabled. */
    public String whyOff() {
        return off;
    }

    /** {@code <memory root>/drover}; null when off. */
    Path memoryParent() {
        return memoryRoot == null ? null : memoryRoot.resolve(PARENT);
    }

    Path cpuParent() {
        return cpuRoot == null ? null : cpuRoot.resolve(PARENT);
    }

    static TaskCgroups detect(String env, Path procSelfCgroup, Path mount) {
        TaskCgroups found;
        if ("0".equals(env)) {
            found = off(ENV + "=0 in the agent's environment");
        } else {
            found = fromProc(procSelfCgroup, mount);
        }
        if (found.enabled()) {
            LOG.info("task cgroups: on, under {}/{} (memory) and {} (cpu)", found.memoryRoot, PARENT,
                    found.cpuRoot == null ? "no cpu controller" : found.cpuRoot + "/" + PARENT);
            int swept = found.sweep(java.time.Instant.now().minus(SWEEP_GRACE));
            if (swept > 0) {
                LOG.info("task cgroups: removed {} empty stale cgroup(s) an earlier agent left", swept);
            }
        } else {
            LOG.info("task cgroups: off ({}): task resources are not enforced", found.off);
        }
        return found;
    }

    private static TaskCgroups fromProc(Path procSelfCgroup, Path mount) {
        List<String> lines;
        try {
            lines = Files.readAllLines(procSelfCgroup);
        } catch (IOException e) {
            return off("cannot read " + procSelfCgroup + ": " + e.getMessage());
        }
        Optional<Path> memory = controllerDir(lines, "memory", mount, "memory.limit_in_bytes");
        if (memory.isEmpty()) {
            return off("no cgroup v1 memory controller at " + mount + "/memory (v2-only nodes are not supported)");
        }
        if (!Files.isWritable(memory.get())) {
            return off("the agent cannot write its memory cgroup " + memory.get() + " (not root?)");
        }
        Path cpu = controllerDir(lines, "cpu", mount, "cpu.shares").filter(Files::isWritable).orElse(null);
        return new TaskCgroups(memory.get(), cpu, "");
    }

    /** The agent's cgroup of a v1 controller: {@code <mount>/<hierarchy>/<path>}, when it is a real directory. */
    static Optional<Path> controllerDir(List<String> procSelfCgroup, String controller, Path mount, String marker) {
        for (String line : procSelfCgroup) {
            String[] f = line.split(":", 3);
            if (f.length != 3 || !List.of(f[1].split(",")).contains(controller)) {
                continue;
            }
            String rel = f[2].startsWith("/") ? f[2].substring(1) : f[2];
            for (String hierarchy : List.of(f[1], controller)) {
                Path dir = mount.resolve(hierarchy).resolve(rel).normalize();
                if (dir.startsWith(mount) && Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)
                        && Files.exists(dir.resolve(marker), LinkOption.NOFOLLOW_LINKS)) {
                    return Optional.of(dir);
                }
            }
        }
        return Optional.empty();
    }

    /**
     * The run's cgroups with the limits of {@code resources} written; an existing one of the same name (a
     * re-run of the task) is removed first if its removal is still queued ({@link CgroupWorker#removeNow}: the new run
     * gets a fresh cgroup, not the old run's OOM counter), else used again. Empty when off or nothing is asked.
     *
     * @throws SpawnException naming the directory or file when a name is not a safe path segment or cgroupfs
     *     refuses (the start fails with it; whatever was made is removed)
     */
    public Optional<TaskCgroup> create(String allocId, String taskName, TaskResources resources)
            throws SpawnException {
        if (!enabled() || resources == null || !resources.any()) {
            return Optional.empty();
        }
        String name = name(allocId, taskName);
        TaskCgroup cg = new TaskCgroup(memoryParent().resolve(name), cpuRoot == null ? null : cpuParent().resolve(name));
        CgroupWorker.instance().removeNow(cg.memory()); // a re-run's: the old run's cgroup, if still queued, goes first
        try {
            for (Path dir : cg.dirs()) {
                mkdir(dir.getParent());
                mkdir(dir);
            }
            long[] mem = memoryLimits(resources);
            TaskCgroup.write(cg.memory().resolve("memory.swappiness"), "0");
            if (mem[0] > 0) {
                TaskCgroup.write(cg.memory().resolve("memory.limit_in_bytes"), Long.toString(mem[0]));
            }
            if (mem[1] > 0) {
                TaskCgroup.write(cg.memory().resolve("memory.soft_limit_in_bytes"), Long.toString(mem[1]));
            }
            if (cg.cpu() != null && resources.cpuMhz() > 0) {
                TaskCgroup.write(cg.cpu().resolve("cpu.shares"), Long.toString(cpuShares(resources.cpuMhz())));
            }
        } catch (IOException e) {
            cg.remove();
            throw new SpawnException("cannot make the task's cgroup " + cg.memory() + ": " + e.getMessage(), 0);
        }
        return Optional.of(cg);
    }

    /**
     * The cgroup of a run a handle names (re-attach after an agent restart): present when {@code dirs} are this
     * node's drover cgroups (direct children of the drover parents, real directories); else empty.
     */
    public Optional<TaskCgroup> adopt(List<Path> dirs) {
        if (!enabled() || dirs.isEmpty()) {
            return Optional.empty();
        }
        Path memory = dirs.get(0);
        Path cpu = dirs.size() > 1 ? dirs.get(1) : null;
        boolean ok = memoryParent().equals(memory.getParent()) && Files.isDirectory(memory, LinkOption.NOFOLLOW_LINKS)
                && (cpu == null || (cpuParent() != null && cpuParent().equals(cpu.getParent())
                        && cpu.getFileName().equals(memory.getFileName())));
        return ok ? Optional.of(new TaskCgroup(memory, cpu)) : Optional.empty();
    }

    /**
     * Removes the empty drover cgroups last changed before {@code before} (what an agent that died left); one
     * with a process in it is kept. Returns how many memory cgroups were removed.
     */
    public int sweep(java.time.Instant before) {
        if (!enabled()) {
            return 0;
        }
        int removed = 0;
        for (Path dir : children(memoryParent())) {
            TaskCgroup cg = new TaskCgroup(dir, cpuParent() == null ? null : cpuParent().resolve(dir.getFileName()));
            if (olderThan(dir, before) && cg.empty() && rmdir(dir)) {
                removed++;
            }
        }
        if (cpuParent() != null) {
            for (Path dir : children(cpuParent())) {
                if (olderThan(dir, before) && !Files.exists(memoryParent().resolve(dir.getFileName()),
                        LinkOption.NOFOLLOW_LINKS)) {
                    rmdir(dir); // fails while a process is in it
                }
            }
        }
        return removed;
    }

    /** The drover cgroups present now (the memory ones), for leak checks. */
    public List<Path> present() {
        return enabled() ? children(memoryParent()) : List.of();
    }

    private static List<Path> children(Path parent) {
        if (!Files.isDirectory(parent, LinkOption.NOFOLLOW_LINKS)) {
            return List.of();
        }
        try (Stream<Path> s = Files.list(parent)) {
            return s.filter(p -> Files.isDirectory(p, LinkOption.NOFOLLOW_LINKS)).sorted().toList();
        } catch (IOException e) {
            return List.of();
        }
    }

    private static boolean olderThan(Path dir, java.time.Instant before) {
        try {
            BasicFileAttributes a = Files.readAttributes(dir, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return a.lastModifiedTime().toInstant().isBefore(before);
        } catch (IOException e) {
            return false;
        }
    }

    /** rmdir (never through a link); whether it is gone. */
    static boolean rmdir(Path dir) {
        if (dir == null) {
            return true;
        }
        try {
            if (Files.isSymbolicLink(dir)) {
                return false;
            }
            Files.delete(dir);
            return true;
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            LOG.warn("task cgroups: cannot remove {}: {}", dir,
                    e instanceof FileSystemException f && f.getReason() != null ? f.getReason() : e.toString());
            return false;
        }
    }

    private static void mkdir(Path dir) throws IOException {
        try {
            Files.createDirectory(dir);
        } catch (FileAlreadyExistsException e) {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                throw new IOException(dir + " exists and is not a directory", e);
            }
        } catch (FileSystemException e) {
            throw new IOException("mkdir " + dir + ": " + (e.getReason() == null ? e : e.getReason()), e);
        }
    }

    /** {@code <allocId>.<task>}, each part checked as one path segment. */
    static String name(String allocId, String taskName) throws SpawnException {
        segment("alloc id", allocId, false);
        segment("task name", taskName, true);
        return allocId + "." + taskName;
    }

    private static void segment(String what, String s, boolean dots) throws SpawnException {
        boolean bad = s == null || s.isEmpty() || s.length() > 120 || s.equals(".") || s.equals("..");
        for (int i = 0; !bad && i < s.length(); i++) {
            char c = s.charAt(i);
            bad = c == '/' || c < 0x20 || c == 0x7f || (c == '.' && !dots);
        }
        if (bad) {
            throw new SpawnException("cannot name the task's cgroup: the " + what + " \"" + s + "\" is not a plain "
                    + "path segment (1-120 characters, no '/'" + (dots ? "" : ", no '.'") + ", no control characters)",
                    0);
        }
    }

    /** {hard, soft} in bytes as Nomad's executor ({@code memoryLimits}): 0 or -1 means not written. */
    static long[] memoryLimits(TaskResources r) {
        long mib = 1L << 20;
        if (r.memoryMaxMb() == -1) {
            return new long[] {-1, r.memoryMb() * mib};
        }
        if (r.memoryMaxMb() <= 0) {
            return new long[] {r.memoryMb() * mib, 0};
        }
        return new long[] {Math.max(r.memoryMaxMb(), r.memoryMb()) * mib, r.memoryMb() * mib};
    }

    static long cpuShares(int mhz) {
        return Math.max(MIN_CPU_SHARES, Math.min(MAX_CPU_SHARES, mhz));
    }

    @Override
    public String toString() {
        return enabled() ? "task cgroups under " + memoryParent() : "task cgroups off (" + off + ")";
    }

    static List<Path> parseDirs(String joined) {
        List<Path> out = new ArrayList<>();
        if (joined != null) {
            for (String p : joined.split("\n")) {
                if (!p.isEmpty() && p.startsWith("/")) {
                    out.add(Path.of(p));
                }
            }
        }
        return out;
    }
}
