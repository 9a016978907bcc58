/*
 * drover-shim: outlives the agent so that a task's true exit status is recorded even when no agent runs, and
 * kills whatever the task leaves behind when it ends.
 *
 * Usage: drover-shim [--user UID:GID] [--pid-ns] [--ipc-ns] [--cgroup DIR]... STATUS_FILE EXE ARGV0 [ARGS...]
 *
 * With --cgroup DIR (at most 4, one per cgroup v1 controller: the task's memory and cpu cgroups the agent made),
 * the forked child, first thing after its setpgid and before any namespace, user drop or execve, moves itself into
 * each DIR by writing "0" (the writer itself) to DIR/cgroup.procs, opened O_WRONLY | O_NOFOLLOW: no instruction of
 * the task runs outside its cgroups, and the shim itself stays out of them (its few pages are not the task's, and
 * the agent can rmdir the cgroups once the shim has reaped everything). A failed join is reported as
 * "cgroup E ended T" (E the errno) and the task never runs; the shim ends with exit 127 as for a failed exec.
 *
 * With --pid-ns (the shim runs as root), the shim calls unshare(CLONE_NEWPID) before its fork, so the task is
 * PID 1 of a new PID namespace while the shim itself stays in the agent's (it keeps its pid, writes STATUS_FILE,
 * reaps, and the agent still finds the task's host pid in /proc/SHIM/task/SHIM/children). The child, first thing
 * after the fork, also makes a mount namespace of its own (unshare(CLONE_NEWNS), every mount made private, so
 * nothing propagates back to the host) and mounts a new proc (nosuid, nodev, noexec) on /proc: tools in the task
 * see the namespace's processes only. Orphans of the task are then re-parented to the task (the namespace's init),
 * not to the shim; when the task ends, the kernel SIGKILLs everything left in the namespace, so the leftover kill
 * below finds nothing. A signal the shim forwards reaches the task only when the task handles it (the kernel
 * drops, for a namespace's init, any signal from outside but SIGKILL and SIGSTOP that it does not catch).
 * With --ipc-ns, the child calls unshare(CLONE_NEWIPC): System V IPC and POSIX message queues of its own.
 * A failed namespace step is reported like a failed execve ("exec E", E the errno) and the task never runs.
 *
 * With --user (the shim runs as root), the forked child drops to UID:GID before its execve: supplementary
 * groups become GID alone, then setgid, then setuid (real, effective and saved ids). A failed drop is reported
 * like a failed execve ("exec E"), and the task never runs. The shim itself keeps root, so that it can still
 * write STATUS_FILE and kill what the task leaves behind. Being static, with no dynamic loader, the shim honours
 * no LD_PRELOAD or LD_LIBRARY_PATH of the task's environment while it runs as root.
 *
 * Started by the agent with posix_spawn as the leader of a new session (default dispositions, empty mask,
 * stdio and work dir already set). It makes itself a child subreaper (PR_SET_CHILD_SUBREAPER: every orphaned
 * descendant of the task, even one that called setsid, is re-parented to the shim, not to init), then forks the
 * task (execve EXE with ARGV0 ARGS... and the shim's environment). The task leads a process group of its own in
 * the shim's session (setpgid in both child and parent, so the group exists once fork returned in either): the
 * shim is alone in its group. The shim keeps every signal blocked for its whole life and takes them with
 * rt_sigtimedwait: SIGCHLD reaps (adopted orphans included), any other signal sent to the shim (the agent's
 * kill_signal, `alloc signal`) is forwarded to the task's group, so none is lost between the spawn and the fork
 * (signals pending before the fork are forwarded once the task exists). The agent SIGKILLs the task's group
 * directly (the group id is the pid of the shim's child, read from /proc/SHIM/task/SHIM/children), so a kill
 * spares the shim: it then kills and reaps whatever is left below it (below), and its own exit tells the agent
 * that the whole tree is dead, with no /proc search (issue 18). The task starts with default dispositions and an
 * empty mask.
 *
 * When the task ends, the shim writes one line to STATUS_FILE (one write; readers read it only once the shim has
 * ended, so no rename is needed — an empty file means the shim died while writing, i.e. unknown):
 *   "exit N ended T"     the task exited with code N
 *   "signal N ended T"   signal N ended the task
 *   "exec E ended T"     execve failed with errno E (the task never ran)
 *   "cgroup E ended T"   joining a --cgroup failed with errno E (the task never ran)
 * T is the wall clock (CLOCK_REALTIME, unix nanoseconds) when the shim reaped the task: the task's end time for an
 * agent that re-attaches after the task ended. An entry already at STATUS_FILE's name is unlinked (never
 * followed) and the file created with O_EXCL | O_NOFOLLOW: the task dir is the task's.
 * then SIGKILLs and reaps every process still below it (what the task left behind: background children, setsid
 * daemons), appends "killed P P ... [+N]" when it killed any (the first 32 pids, and how many more: what the
 * agent's kill report lists), and finally ends the way the task did: exit N, or death by signal N (core dumps disabled), or
 * exit 127 when exec failed. So its parent's waitpid mirrors the task's status exactly and the parent reads the
 * file only for exit codes 127 (exec errno) and 125 (the shim's own failure).
 * A SIGKILL of the task writes "signal 9 ...". A SIGKILL of the shim itself (an agent that found no child to
 * signal, or an older agent) kills only the shim: no status is written then, and the agent searches /proc for
 * the tree as it did before the task had a group of its own.
 *
 * Descriptors 3 and 4, when open, are read ends of the task's stdout/stderr pipes that the agent hands over: the
 * shim keeps them (close-on-exec, the task does not see them) and never reads them, so that the pipes keep a
 * reader while no agent runs (no SIGPIPE for the task; up to a pipe buffer of output is kept) and a new agent
 * re-opens them through /proc/<shim pid>/fd/3 and 4. It keeps its stdout and stderr (the pipes' write ends) until
 * it ends, so that the agent sees the pipes' end of file and the shim's exit in one wake-up.
 *
 * No C library (x86_64 Linux system calls only, built with -nostdlib -static): a static glibc program costs
 * ~0.3 ms more to start (measured: 550-630 us against 250-280 us for posix_spawn + wait of an empty program), which
 * every task launch would pay. The fork (not vfork) keeps the child on its own copy of this tiny process; execve
 * errors come back through a close-on-exec pipe, read after the task ended.
 */

#if !defined(__x86_64__) || !defined(__linux__)
#error "drover-shim uses x86_64 Linux system calls directly"
#endif

typedef unsigned long size_t;
typedef long ssize_t;

#define SYS_read 0
#define SYS_write 1
#define SYS_close 3
#define SYS_rt_sigaction 13
#define SYS_rt_sigprocmask 14
#define SYS_nanosleep 35
#define SYS_getpid 39
#define SYS_fork 57
#define SYS_execve 59
#define SYS_exit 60
#define SYS_wait4 61
#define SYS_setuid 105
#define SYS_setgid 106
#define SYS_setgroups 116
#define SYS_kill 62
#define SYS_fcntl 72
#define SYS_rt_sigtimedwait 128
#define SYS_setpgid 109
#define SYS_prctl 157
#define SYS_clock_gettime 228
#define SYS_exit_group 231
#define SYS_openat 257
#define SYS_unlinkat 263
#define SYS_mount 165
#define SYS_unshare 272
#define SYS_pipe2 293

#define AT_FDCWD (-100)
#define O_RDONLY 0
#define O_WRONLY 1
#define O_CREAT 0100
#define O_EXCL 0200
#define O_NOFOLLOW 0400000
#define CLOCK_REALTIME 0
#define EEXIST 17
#define O_CLOEXEC 02000000
#define F_SETFD 2
#define FD_CLOEXEC 1
#define EINTR 4
#define SIG_BLOCK 0
#define SIG_UNBLOCK 1
#define SIG_SETMASK 2
#define SIGKILL 9
#define SIGCHLD 17
#define SIGSTOP 19
#define NSIG 65
#define PR_SET_DUMPABLE 4
#define PR_SET_CHILD_SUBREAPER 36
#define WNOHANG 1
#define CLONE_NEWNS 0x00020000
#define CLONE_NEWIPC 0x08000000
#define CLONE_NEWPID 0x20000000
#define MS_NOSUID 2
#define MS_NODEV 4
#define MS_NOEXEC 8
#define MS_REC 16384
#define MS_PRIVATE (1 << 18)

static long sys6(long n, long a, long b, long c, long d, long e, long f) {
    long ret;
    register long r10 __asm__("r10") = d;
    register long r8 __asm__("r8") = e;
    register long r9 __asm__("r9") = f;
    __asm__ volatile("syscall"
                     : "=a"(ret)
                     : "a"(n), "D"(a), "S"(b), "d"(c), "r"(r10), "r"(r8), "r"(r9)
                     : "rcx", "r11", "memory");
    return ret;
}

#define sys0(n) sys6(n, 0, 0, 0, 0, 0, 0)
#define sys1(n, a) sys6(n, (long) (a), 0, 0, 0, 0, 0)
#define sys2(n, a, b) sys6(n, (long) (a), (long) (b), 0, 0, 0, 0)
#define sys3(n, a, b, c) sys6(n, (long) (a), (long) (b), (long) (c), 0, 0, 0)
#define sys4(n, a, b, c, d) sys6(n, (long) (a), (long) (b), (long) (c), (long) (d), 0, 0)
#define sys5(n, a, b, c, d, e) sys6(n, (long) (a), (long) (b), (long) (c), (long) (d), (long) (e), 0)

/* the kernel's struct sigaction on x86_64 (no handler ever runs here: only SIG_DFL) */
struct ksigaction {
    unsigned long handler;
    unsigned long flags;
    unsigned long restorer;
    unsigned long mask;
};

/* the compiler may call these for struct copies and initialisations */
void *memset(void *d, int c, size_t n) {
    unsigned char *p = d;
    while (n--) {
        *p++ = (unsigned char) c;
    }
    return d;
}

void *memcpy(void *d, const void *s, size_t n) {
    unsigned char *p = d;
    const unsigned char *q = s;
    while (n--) {
        *p++ = *q++;
    }
    return d;
}

static __attribute__((noreturn)) void exit_now(int code) {
    for (;;) {
        sys1(SYS_exit_group, code);
    }
}

/* appends the decimal form of v (>= 0) to buf at *len */
static void put_int(char *buf, size_t *len, long v) {
    char tmp[24];
    int n = 0;
    do {
        tmp[n++] = (char) ('0' + v % 10);
        v /= 10;
    } while (v > 0);
    while (n > 0) {
        buf[(*len)++] = tmp[--n];
    }
}

static void set_disposition(int sig, unsigned long handler) {
    struct ksigaction sa = {handler, 0, 0, 0};
    sys4(SYS_rt_sigaction, sig, &sa, 0, 8);
}

/* the wall clock in unix nanoseconds (0 if unreadable) */
static long now_nanos(void) {
    long ts[2] = {0, 0};
    if (sys2(SYS_clock_gettime, CLOCK_REALTIME, ts) != 0) {
        return 0;
    }
    return ts[0] * 1000000000L + ts[1];
}

/* "KIND VALUE ended NANOS\n": how the task ended and when (the wall clock when the shim reaped it) */
static long write_status(const char *path, const char *kind, long value, long ended) {
    char line[96];
    size_t len = 0;
    for (const char *k = kind; *k; k++) {
        line[len++] = *k;
    }
    line[len++] = ' ';
    put_int(line, &len, value);
    if (ended > 0) {
        static const char at[] = " ended ";
        for (const char *k = at; *k; k++) {
            line[len++] = *k;
        }
        put_int(line, &len, ended);
    }
    line[len++] = '\n';
    /* The file is in the task dir, which the task can write: whatever is at its name now (a link to a file of
     * root's, planted by the task) is unlinked, never followed, and the file created anew with O_EXCL.
     * No O_TRUNC, no rename over an old file: ext4 flushes a file replaced either way (auto_da_alloc), which
     * measured 4-5 ms per task; the file is new for each run, so the unlink finds nothing in the normal case. */
    long fd = -EEXIST;
    for (int attempt = 0; attempt < 8 && fd == -EEXIST; attempt++) {
        sys3(SYS_unlinkat, AT_FDCWD, path, 0);
        fd = sys4(SYS_openat, AT_FDCWD, path, O_WRONLY | O_CREAT | O_EXCL | O_NOFOLLOW | O_CLOEXEC, 0644);
    }
    if (fd >= 0) {
        sys3(SYS_write, fd, line, len);
    }
    return fd; /* kept open for the "killed" line (note_killed) */
}

/* The pids of what the shim killed after its task ended (the first KILLED_LISTED of them, and how many more). */
#define KILLED_LISTED 32
static long killed_pids[KILLED_LISTED];
static long killed_count;

#define KILLED_KNOWN 4096
static long known_pids[KILLED_KNOWN]; /* every pid killed, to count each once (a killed child stays listed until reaped) */

static void note_killed(long pid) {
    long known = killed_count < KILLED_KNOWN ? killed_count : KILLED_KNOWN;
    for (long i = 0; i < known; i++) {
        if (known_pids[i] == pid) {
            return;
        }
    }
    if (killed_count < KILLED_KNOWN) {
        known_pids[killed_count] = pid;
    }
    if (killed_count < KILLED_LISTED) {
        killed_pids[killed_count] = pid;
    }
    killed_count++;
}

/* appends "killed P P ... [+N]" to the status file, when the shim killed something; then closes it */
static void write_killed(long fd) {
    if (fd < 0) {
        return;
    }
    if (killed_count > 0) {
        char line[32 + KILLED_LISTED * 12];
        size_t len = 0;
        static const char head[] = "killed";
        for (const char *k = head; *k; k++) {
            line[len++] = *k;
        }
        for (long i = 0; i < killed_count && i < KILLED_LISTED; i++) {
            line[len++] = ' ';
            put_int(line, &len, killed_pids[i]);
        }
        if (killed_count > KILLED_LISTED) {
            line[len++] = ' ';
            line[len++] = '+';
            put_int(line, &len, killed_count - KILLED_LISTED);
        }
        line[len++] = '\n';
        sys3(SYS_write, fd, line, len);
    }
    sys1(SYS_close, fd);
}

/* SIGKILLs every child listed in /proc/thread-self/children; returns how many were listed (-1: unreadable) */
static int kill_children(void) {
    char buf[4096];
    long fd = sys4(SYS_openat, AT_FDCWD, "/proc/thread-self/children", O_RDONLY | O_CLOEXEC, 0);
    if (fd < 0) {
        return -1;
    }
    int n = 0;
    long pid = -1;
    long r;
    while ((r = sys3(SYS_read, fd, buf, sizeof buf)) > 0) {
        for (long i = 0; i < r; i++) {
            if (buf[i] >= '0' && buf[i] <= '9') {
                pid = (pid < 0 ? 0 : pid * 10) + (buf[i] - '0');
            } else if (pid > 0) {
                if (sys2(SYS_kill, pid, SIGKILL) == 0) {
                    note_killed(pid);
                }
                n++;
                pid = -1;
            }
        }
    }
    if (pid > 0) {
        if (sys2(SYS_kill, pid, SIGKILL) == 0) {
            note_killed(pid);
        }
        n++;
    }
    sys1(SYS_close, fd);
    return n;
}

/* Kills and reaps everything below the shim: each death of a killed child re-parents its own children to us. */
static void kill_leftovers(void) {
    for (;;) {
        int listed = kill_children();
        long r = sys4(SYS_wait4, -1, 0, listed > 0 ? 0 : WNOHANG, 0);
        if (r == -EINTR) {
            continue;
        }
        if (r < 0) {
            return; /* ECHILD: nothing left */
        }
        if (r == 0) { /* a child exists that the list did not show yet (adopted meanwhile): look again */
            long ms[2] = {0, 1000000};
            sys2(SYS_nanosleep, ms, 0);
        }
    }
}

/* Ends the shim the way the task ended, so that the parent's waitpid sees the task's status. */
static __attribute__((noreturn)) void end_like(int st) {
    int sig = st & 0x7f;
    if (sig != 0 && sig != 0x7f) {
        sys2(SYS_prctl, PR_SET_DUMPABLE, 0); /* no core dump of the shim for SIGSEGV, SIGABRT, ... */
        set_disposition(sig, 0 /* SIG_DFL */);
        unsigned long one = 1UL << (sig - 1);
        sys4(SYS_rt_sigprocmask, SIG_UNBLOCK, &one, 0, 8);
        sys2(SYS_kill, sys0(SYS_getpid), sig);
        exit_now(128 + sig); /* a signal whose default action does not terminate */
    }
    exit_now((st >> 8) & 0xff);
}

/* parses "UID:GID" (decimal); returns 0 on success */
static int parse_ids(const char *s, long *uid, long *gid) {
    long *out[2] = {uid, gid};
    for (int i = 0; i < 2; i++) {
        long v = 0;
        int digits = 0;
        while (*s >= '0' && *s <= '9' && digits < 10) {
            v = v * 10 + (*s++ - '0');
            digits++;
        }
        if (digits == 0 || *s != (i == 0 ? ':' : '\0')) {
            return -1;
        }
        *out[i] = v;
        s++;
    }
    return 0;
}

/* the child's drop to uid:gid before execve: 0, or the negated errno of the step that failed */
static long drop_to(long uid, long gid) {
    unsigned int groups[1] = {(unsigned int) gid};
    long r = sys2(SYS_setgroups, 1, groups);
    if (r == 0) {
        r = sys1(SYS_setgid, gid);
    }
    if (r == 0) {
        r = sys1(SYS_setuid, uid);
    }
    return r;
}

/* The child's move into each cgroup dir: "0" written to DIR/cgroup.procs (never through a link). 0, or the negated
 * errno of the step that failed (ENAMETOOLONG for a DIR longer than the buffer). */
#define MAX_CGROUPS 4
#define CGROUP_FAILED 0x10000
#define ENAMETOOLONG 36
static long join_cgroups(char **dirs, int n) {
    static const char procs[] = "/cgroup.procs";
    for (int i = 0; i < n; i++) {
        char path[4096];
        size_t len = 0;
        for (const char *d = dirs[i]; *d; d++) {
            if (len >= sizeof path - sizeof procs) {
                return -ENAMETOOLONG;
            }
            path[len++] = *d;
        }
        for (size_t k = 0; k < sizeof procs; k++) { /* with its NUL */
            path[len++] = procs[k];
        }
        long fd = sys4(SYS_openat, AT_FDCWD, path, O_WRONLY | O_NOFOLLOW | O_CLOEXEC, 0);
        if (fd < 0) {
            return fd;
        }
        long w = sys3(SYS_write, fd, "0", 1);
        sys1(SYS_close, fd);
        if (w < 0) {
            return w;
        }
    }
    return 0;
}

/* whether s equals the NUL-terminated option name opt */
static int is(const char *s, const char *opt) {
    int i = 0;
    while (opt[i] && s[i] == opt[i]) {
        i++;
    }
    return opt[i] == '\0' && s[i] == '\0';
}

/* The child's namespaces (--pid-ns: a mount namespace with a new /proc of the task's PID namespace; --ipc-ns):
 * 0, or the negated errno of the step that failed. Runs as root, before the drop to the task user. */
static long enter_namespaces(int pid_ns, int ipc_ns) {
    long r = 0;
    if (ipc_ns) {
        r = sys1(SYS_unshare, CLONE_NEWIPC);
    }
    if (r == 0 && pid_ns) {
        r = sys1(SYS_unshare, CLONE_NEWNS);
        if (r == 0) {
            r = sys5(SYS_mount, "none", "/", 0, MS_REC | MS_PRIVATE, 0);
        }
        if (r == 0) {
            r = sys5(SYS_mount, "proc", "/proc", "proc", MS_NOSUID | MS_NODEV | MS_NOEXEC, 0);
        }
    }
    return r;
}

static int shim_main(int argc, char **argv, char **envp) {
    long uid = -1;
    long gid = -1;
    int pid_ns = 0;
    int ipc_ns = 0;
    char *cgroups[MAX_CGROUPS];
    int ncgroups = 0;
    int bad = 0;
    while (!bad && argc >= 2 && argv[1][0] == '-' && argv[1][1] == '-') {
        if (is(argv[1], "--user") && argc >= 3 && uid < 0 && parse_ids(argv[2], &uid, &gid) == 0) {
            argc -= 2;
            argv += 2;
        } else if (is(argv[1], "--pid-ns")) {
            pid_ns = 1;
            argc--;
            argv++;
        } else if (is(argv[1], "--cgroup") && argc >= 3 && ncgroups < MAX_CGROUPS && argv[2][0] == '/') {
            cgroups[ncgroups++] = argv[2];
            argc -= 2;
            argv += 2;
        } else if (is(argv[1], "--ipc-ns")) {
            ipc_ns = 1;
            argc--;
            argv++;
        } else {
            bad = 1;
        }
    }
    if (bad || argc < 4) {
        static const char usage[] =
                "usage: drover-shim [--user UID:GID] [--pid-ns] [--ipc-ns] [--cgroup DIR]... STATUS_FILE EXE ARGV0 "
                "[ARGS...]\n";
        sys3(SYS_write, 2, usage, sizeof usage - 1);
        return 125;
    }
    const char *status = argv[1];
    unsigned long all = ~0UL;
    unsigned long none = 0;
    /* blocked from the start: a signal sent to the group before the task exists stays pending, forwarded below */
    sys4(SYS_rt_sigprocmask, SIG_SETMASK, &all, 0, 8);
    sys3(SYS_fcntl, 3, F_SETFD, FD_CLOEXEC); /* EBADF when the agent held nothing: fine */
    sys3(SYS_fcntl, 4, F_SETFD, FD_CLOEXEC);
    sys2(SYS_prctl, PR_SET_CHILD_SUBREAPER, 1);

    int report[2]; /* execve's errno, from the child; closed on a successful exec */
    if (sys2(SYS_pipe2, report, O_CLOEXEC) < 0) {
        report[0] = report[1] = -1;
    }
    if (pid_ns) {
        long r = sys1(SYS_unshare, CLONE_NEWPID); /* the shim stays where it is: its next child is PID 1 */
        if (r < 0) {
            write_killed(write_status(status, "exec", -r, now_nanos()));
            return 127;
        }
    }
    long pid = sys0(SYS_fork);
    if (pid < 0) {
        write_killed(write_status(status, "exec", -pid, now_nanos()));
        return 127;
    }
    if (pid == 0) {
        sys2(SYS_setpgid, 0, 0); /* a group of its own: the agent's SIGKILL of it spares the shim */
        sys4(SYS_rt_sigprocmask, SIG_SETMASK, &none, 0, 8);
        long err = join_cgroups(cgroups, ncgroups);
        if (err != 0) { /* reported as "cgroup E": the errno with this flag (errnos are below 4096) */
            int e = (int) -err | CGROUP_FAILED;
            if (report[1] >= 0) {
                sys3(SYS_write, report[1], &e, sizeof e);
            }
            exit_now(127);
        }
        err = enter_namespaces(pid_ns, ipc_ns);
        if (err == 0 && uid >= 0) {
            err = drop_to(uid, gid);
        }
        if (err == 0) {
            err = sys3(SYS_execve, argv[2], argv + 3, envp);
        }
        int e = (int) -err;
        if (report[1] >= 0) {
            sys3(SYS_write, report[1], &e, sizeof e);
        }
        exit_now(127);
    }
    sys2(SYS_setpgid, pid, pid); /* also here: the group exists once either side ran (EACCES after exec: fine) */
    if (report[1] >= 0) {
        sys1(SYS_close, report[1]);
    }
    sys1(SYS_close, 0);

    /* Every signal stays blocked: SIGCHLD reaps every child as it dies (adopted orphans too) until the task itself
     * has ended; any other signal, sent before or after the fork, goes on to the task's group. */
    int st = 0;
    long ended = 0;
    int reaped = 0;
    while (!reaped) {
        unsigned char info[128]; /* siginfo_t */
        long sig = sys4(SYS_rt_sigtimedwait, &all, info, 0, 8);
        if (sig == -EINTR) {
            continue;
        }
        if (sig < 0) {
            return 125;
        }
        if (sig != SIGCHLD) {
            sys2(SYS_kill, -pid, sig);
            continue;
        }
        for (;;) {
            int s = 0;
            long r = sys4(SYS_wait4, -1, &s, WNOHANG, 0);
            if (r == pid) {
                ended = now_nanos();
                reaped = 1;
                st = s;
                break;
            }
            if (r == -EINTR) {
                continue;
            }
            if (r <= 0) {
                break; /* 0: the others live on; ECHILD cannot be while the task is unreaped */
            }
        }
    }
    int exec_errno = 0;
    if (report[0] >= 0 && sys3(SYS_read, report[0], &exec_errno, sizeof exec_errno) == sizeof exec_errno
            && exec_errno != 0) {
        long fd = (exec_errno & CGROUP_FAILED) ? write_status(status, "cgroup", exec_errno & ~CGROUP_FAILED, ended)
                : write_status(status, "exec", exec_errno, ended);
        kill_leftovers();
        write_killed(fd);
        return 127;
    }
    long fd = (st & 0x7f) != 0 ? write_status(status, "signal", st & 0x7f, ended)
            : write_status(status, "exit", (st >> 8) & 0xff, ended);
    kill_leftovers();
    write_killed(fd);
    end_like(st);
}

__attribute__((used, noreturn)) void start_c(long *sp) {
    int argc = (int) sp[0];
    char **argv = (char **) (sp + 1);
    char **envp = argv + argc + 1;
    exit_now(shim_main(argc, argv, envp));
}

__asm__(".text\n"
        ".global _start\n"
        "_start:\n"
        "  xor %rbp, %rbp\n"
        "  mov %rsp, %rdi\n"
        "  and $-16, %rsp\n"
        "  call start_c\n"
        "  hlt\n");
