package io.drover.process;

import java.io.FileInputStream;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Deque;
import java.util.HashMap;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;

/**
 * Reads the process table from {@code /proc/<pid>/stat}. Stateless apart from the snapshot it returns; any
 * thread; costs one small file read per process of the machine.
 */
public final class ProcTable {
    private static final Path PROC = Path.of("/proc");

    /**
     * One line of {@code /proc/<pid>/stat}.
     *
     * @param state R, S, D, Z, T, ...
     * @param startTime clock ticks after boot at which the process started: with the pid, its identity
     */
    public record Proc(int pid, String comm, char state, int ppid, int pgid, int sid, long startTime) {
        public boolean zombie() {
            return state == 'Z' || state == 'X';
        }
    }

    static final int STAT_BUFFER = 1024;
    private final Map<Integer, Proc> byPid;
    private Map<Integer, List<Proc>> children; // by parent pid, built on the first tree() of this snapshot

    private ProcTable(Map<Integer, Proc> byPid) {
        this.byPid = byPid;
    }

    /**
     * A snapshot of every process of the machine. Processes that exit while it is read are left out. Reads with a
     * plain {@code FileInputStream} and one buffer for the whole snapshot: half the time of {@code Files.readString}
     * per process here (1.6 ms instead of 3.6 ms for 124 processes, C1), and the tree killer's search waits on it.
     */
    public static ProcTable snapshot() {
        String[] names = PROC.toFile().list();
        if (names == null) {
            throw new IllegalStateException("cannot read /proc");
        }
        Map<Integer, Proc> procs = new HashMap<>(names.length * 2);
        byte[] buf = new byte[STAT_BUFFER];
        for (String name : names) {
            if (name.isEmpty() || !Character.isDigit(name.charAt(0))) {
                continue;
            }
            read(Integer.parseInt(name), buf).ifPresent(p -> procs.put(p.pid(), p));
        }
        return new ProcTable(procs);
    }

    /** One process, empty when it does not exist (any more). */
    public static Optional<Proc> read(int pid) {
        return read(pid, new byte[STAT_BUFFER]);
    }

    /** {@code /proc/<pid>/stat} read into {@code buf} (a larger one is made if it does not fit). */
    static Optional<Proc> read(int pid, byte[] buf) {
        try (FileInputStream in = new FileInputStream("/proc/" + pid + "/stat")) {
            int n = 0;
            while (true) {
                if (n == buf.length) {
                    buf = java.util.Arrays.copyOf(buf, n * 2);
                }
                int r = in.read(buf, n, buf.length - n);
                if (r < 0) {
                    break;
                }
                n += r;
            }
            return n == 0 ? Optional.empty() : Optional.of(parse(buf, n));
        } catch (IOException e) {
            return Optional.empty();
        }
    }

    /**
     * Parses the first {@code n} bytes of {@code buf} as {@code /proc/<pid>/stat}, without building the line as a
     * string or splitting it: a snapshot parses one line per process of the machine, and the tree killer's
     * search waits on it (issue 18: a quarter of a snapshot's CPU went to {@code split}).
     */
    static Proc parse(byte[] buf, int n) {
        int open = -1;
        int close = -1;
        for (int i = 0; i < n; i++) {
            if (buf[i] == '(' && open < 0) {
                open = i;
            } else if (buf[i] == ')') {
                close = i;
            }
        }
        if (open < 0 || close < open || close + 2 >= n) {
            return parse(new String(buf, 0, n, StandardCharsets.UTF_8)); // malformed: let the slow path say so
        }
        int pid = (int) number(buf, 0, open);
        String comm = new String(buf, open + 1, close - open - 1, StandardCharsets.UTF_8);
        // fields after the comm, space separated: field 3 (state) starts at close + 2
        int field = 3;
        int i = close + 2;
        char state = (char) buf[i];
        long ppid = 0;
        long pgid = 0;
        long sid = 0;
        long start = 0;
        while (i < n && field <= 22) {
            int end = i;
            while (end < n && buf[end] != ' ' && buf[end] != '\n') {
                end++;
            }
            switch (field) {
                case 4 -> ppid = number(buf, i, end);
                case 5 -> pgid = number(buf, i, end);
                case 6 -> sid = number(buf, i, end);
                case 22 -> start = number(buf, i, end);
                default -> { }
            }
            field++;
            i = end + 1;
        }
        if (field <= 22) {
            return parse(new String(buf, 0, n, StandardCharsets.UTF_8));
        }
        return new Proc(pid, comm, state, (int) ppid, (int) pgid, (int) sid, start);
    }

    /** A decimal number (optionally negative) in {@code buf[from, to)}, surrounding spaces skipped. */
    private static long number(byte[] buf, int from, int to) {
        long v = 0;
        boolean negative = false;
        boolean digits = false;
        for (int i = from; i < to; i++) {
            byte b = buf[i];
            if (b == '-' && !digits) {
                negative = true;
            } else if (b >= '0' && b <= '9') {
                v = v * 10 + (b - '0');
                digits = true;
            } else if (b != ' ') {
                throw new NumberFormatException("not a number in /proc stat: " + new String(buf, from, to - from,
                        StandardCharsets.UTF_8));
            }
        }
        if (!digits) {
            throw new NumberFormatException("no number in /proc stat");
        }
        return negative ? -v : v;
    }

    static Proc parse(String stat) {
        int open = stat.indexOf('(');
        int close = stat.lastIndexOf(')');
        int pid = Integer.parseInt(stat.substring(0, open).trim());
        String comm = stat.substring(open + 1, close);
        String[] f = stat.substring(close + 2).trim().split(" ");
        // f[0] = field 3 (state); field N is f[N - 3]
        return new Proc(pid, comm, f[0].charAt(0), Integer.parseInt(f[1]), Integer.parseInt(f[2]),
                Integer.parseInt(f[3]), Long.parseLong(f[19]));
    }

    /**
     * Whether the environment a process was started with ({@code /proc/<pid>/environ}) holds exactly the entry
     * {@code KEY=VALUE}; false when it cannot be read (gone, another user's). One small file read.
     */
    public static boolean environHas(int pid, String entry) {
        int eq = entry.indexOf('=');
        return environValue(pid, entry.substring(0, eq)).map(v -> v.equals(entry.substring(eq + 1))).orElse(false);
    }

    /**
     * The value of {@code key} in the environment a process was started with ({@code /proc/<pid>/environ}); empty
     * when it has none or it cannot be read (gone, another user's). One small file read. A process in the middle
     * of {@code execve} can read as having no environment for a moment (its new comm is set before its new
     * environment's bounds); the tree killer's later rounds and the shim's subreaper sweep cover that window.
     */
    public static Optional<String> environValue(int pid, String key) {
        byte[] env;
        try (FileInputStream in = new FileInputStream("/proc/" + pid + "/environ")) {
            env = in.readAllBytes();
        } catch (IOException e) {
            return Optional.empty();
        }
        byte[] prefix = (key + "=").getBytes(StandardCharsets.UTF_8);
        int start = 0;
        for (int i = 0; i <= env.length; i++) {
            if (i == env.length || env[i] == 0) {
                if (i - start >= prefix.length
                        && java.util.Arrays.equals(env, start, start + prefix.length, prefix, 0, prefix.length)) {
                    return Optional.of(new String(env, start + prefix.length, i - start - prefix.length,
                            StandardCharsets.UTF_8));
                }
                start = i + 1;
            }
        }
        return Optional.empty();
    }

    public Optional<Proc> get(int pid) {
        return Optional.ofNullable(byPid.get(pid));
    }

    public List<Proc> all() {
        return List.copyOf(byPid.values());
    }

    /**
     * The tree of a task: {@code root} (if present), its descendants by parent chains, every process of the
     * session {@code sid} or group {@code pgid} (which may have been re-parented when their parent died), and
     * their descendants in turn — which catches a child that called {@code setsid} while its parent lives.
     * Zombies are included, so that their children are found; the tree killer does not signal them.
     */
    public List<Proc> tree(int root, int sid, int pgid) {
        Map<Integer, List<Proc>> children = children();
        Set<Integer> seen = new LinkedHashSet<>();
        Deque<Proc> todo = new ArrayDeque<>();
        get(root).ifPresent(todo::add);
        for (Proc p : byPid.values()) {
            if (p.sid() == sid || p.pgid() == pgid) {
                todo.add(p);
            }
        }
        List<Proc> out = new ArrayList<>();
        while (!todo.isEmpty()) {
            Proc p = todo.poll();
            if (!seen.add(p.pid())) {
                continue;
            }
            out.add(p);
            todo.addAll(children.getOrDefault(p.pid(), List.of()));
        }
        return out;
    }

    /** Processes by parent pid, built once per snapshot (the tree killer asks for a tree per task of a batch). */
    private synchronized Map<Integer, List<Proc>> children() {
        if (children == null) {
            Map<Integer, List<Proc>> map = new HashMap<>();
            for (Proc p : byPid.values()) {
                map.computeIfAbsent(p.ppid(), k -> new ArrayList<>()).add(p);
            }
            children = map;
        }
        return children;
    }
}
