/*
 * drover-shim: outlives the agent so that a task's true exit status is recorded even when no agent runs, and
 * kills whatever the task leaves behind when it ends.
 *
 * Usage: drover-shim STATUS_FILE EXE ARGV0 [ARGS...]
 *
 * Started by the agent with posix_spawn as the leader of a new session (default dispositions, empty mask,
 * stdio and work dir already set). It makes itself a child subreaper (PR_SET_CHILD_SUBREAPER: every orphaned
 * descendant of the task, even one that called setsid, is re-parented to the shim, not to init), then vforks the
 * task (execv EXE with ARGV0 ARGS...), so the task is in the shim's session and process group: the agent signals
 * the whole group and the shim ignores every catchable signal itself (set only in the shim, after the vfork: the
 * task starts with default dispositions). The shim reaps every child as it dies (adopted orphans included).
 *
 * When the task ends, the shim writes one line to STATUS_FILE (one write; readers read it only once the shim has
 * ended, so no rename is needed — an empty file means the shim died while writing, i.e. unknown):
 *   "exit N"     the task exited with code N
 *   "signal N"   signal N ended the task
 *   "exec E"     execv failed with errno E (the task never ran)
 * then SIGKILLs and reaps every process still below it (what the task left behind: background children, setsid
 * daemons), and finally ends the way the task did: exit N, or death by signal N (core dumps disabled), or
 * exit 127 when exec failed. So its parent's waitpid mirrors the task's status exactly and the parent reads the
 * file only for exit codes 127 (exec errno) and 125 (the shim's own failure).
 * SIGKILL to the group kills the shim too: no status is written then.
 *
 * Descriptors 3 and 4, when open, are read ends of the task's stdout/stderr pipes that the agent hands over: the
 * shim keeps them (close-on-exec, the task does not see them) and never reads them, so that the pipes keep a
 * reader while no agent runs (no SIGPIPE for the task; up to a pipe buffer of output is kept) and a new agent
 * re-opens them through /proc/<shim pid>/fd/3 and 4.
 * Signals sent before the vfork stay pending (blocked) and are forwarded to the task.
 */
#define _GNU_SOURCE
#include <errno.h>
#include <fcntl.h>
#include <signal.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

static volatile int exec_errno; /* set by the vfork child when execv fails */

static void write_status(const char *path, const char *kind, int value) {
    char line[64];
    int len = snprintf(line, sizeof line, "%s %d\n", kind, value);
    /* no O_TRUNC, no rename over an old file: ext4 flushes a file replaced either way (auto_da_alloc), which
     * measured 4-5 ms per task; the file is new for each run, ftruncate only guards against a stale longer one */
    int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
    if (fd < 0) {
        return;
    }
    if (write(fd, line, (size_t) len) == len) {
        (void) !ftruncate(fd, len);
    }
    close(fd);
}

/* SIGKILLs every child listed in /proc/self/task/<pid>/children; returns how many were listed (-1: unreadable) */
static int kill_children(void) {
    char path[64];
    char buf[4096];
    snprintf(path, sizeof path, "/proc/self/task/%d/children", (int) getpid());
    int fd = open(path, O_RDONLY | O_CLOEXEC);
    if (fd < 0) {
        return -1;
    }
    int n = 0;
    ssize_t r;
    char num[16];
    size_t k = 0;
    while ((r = read(fd, buf, sizeof buf)) > 0) {
        for (ssize_t i = 0; i < r; i++) {
            if (buf[i] >= '0' && buf[i] <= '9' && k < sizeof num - 1) {
                num[k++] = buf[i];
            } else if (k > 0) {
                num[k] = 0;
                kill((pid_t) atoi(num), SIGKILL);
                n++;
                k = 0;
            }
        }
    }
    if (k > 0) {
        num[k] = 0;
        kill((pid_t) atoi(num), SIGKILL);
        n++;
    }
    close(fd);
    return n;
}

/* Kills and reaps everything below the shim: each death of a killed child re-parents its own children to us. */
static void kill_leftovers(void) {
    for (;;) {
        int listed = kill_children();
        pid_t r = waitpid(-1, NULL, listed > 0 ? 0 : WNOHANG);
        if (r < 0 && errno == EINTR) {
            continue;
        }
        if (r < 0) {
            return; /* ECHILD: nothing left */
        }
        if (r == 0) { /* a child exists that the list did not show yet (adopted meanwhile): look again */
            struct timespec ms = {0, 1000000};
            nanosleep(&ms, NULL);
        }
    }
}

/* Ends the shim the way the task ended, so that the parent's waitpid sees the task's status. */
static int end_like(int st) {
    if (WIFSIGNALED(st)) {
        int sig = WTERMSIG(st);
        struct sigaction dfl;
        memset(&dfl, 0, sizeof dfl);
        dfl.sa_handler = SIG_DFL;
        prctl(PR_SET_DUMPABLE, 0); /* no core dump of the shim for SIGSEGV, SIGABRT, ... */
        sigaction(sig, &dfl, NULL);
        sigset_t one;
        sigemptyset(&one);
        sigaddset(&one, sig);
        sigprocmask(SIG_UNBLOCK, &one, NULL);
        kill(getpid(), sig);
        return 128 + sig; /* a signal whose default action does not terminate */
    }
    return WEXITSTATUS(st);
}

int main(int argc, char **argv) {
    if (argc < 4) {
        static const char usage[] = "usage: drover-shim STATUS_FILE EXE ARGV0 [ARGS...]\n";
        (void) !write(2, usage, sizeof usage - 1);
        return 125;
    }
    const char *status = argv[1];
    fcntl(3, F_SETFD, FD_CLOEXEC); /* EBADF when the agent held nothing: fine */
    fcntl(4, F_SETFD, FD_CLOEXEC);
    prctl(PR_SET_CHILD_SUBREAPER, 1);
    sigset_t all, none;
    sigfillset(&all);
    sigemptyset(&none);
    sigprocmask(SIG_SETMASK, &all, NULL);

    /* vfork: the shim waits until the task has exec'd (or failed to), and learns execv's errno from the
     * child through shared memory; no copy of page tables, no report pipe */
    pid_t pid = vfork();
    if (pid < 0) {
        write_status(status, "exec", errno);
        return 127;
    }
    if (pid == 0) {
        sigprocmask(SIG_SETMASK, &none, NULL);
        execv(argv[2], argv + 3);
        exec_errno = errno;
        _exit(127);
    }

    /* signals that reached the group before the task existed */
    sigset_t pending;
    sigpending(&pending);
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig != SIGCHLD && sigismember(&pending, sig) == 1) {
            kill(pid, sig);
        }
    }
    struct sigaction ignore;
    memset(&ignore, 0, sizeof ignore);
    ignore.sa_handler = SIG_IGN;
    for (int sig = 1; sig < NSIG; sig++) {
        if (sig != SIGKILL && sig != SIGSTOP && sig != SIGCHLD) {
            sigaction(sig, &ignore, NULL);
        }
    }
    sigprocmask(SIG_SETMASK, &none, NULL);
    /* the shim keeps its stdout and stderr (the write ends of the agent's pipes) until it ends: the agent then sees
     * the pipes' end of file and the shim's exit in one wake-up instead of two, and what the task leaves behind
     * is killed before the shim ends anyway */
    close(0);

    /* reap every child as it dies (adopted orphans too) until the task itself has ended */
    int st = 0;
    for (;;) {
        int s;
        pid_t r = waitpid(-1, &s, 0);
        if (r == pid) {
            st = s;
            break;
        }
        if (r < 0 && errno != EINTR) {
            return 125;
        }
    }
    if (exec_errno != 0) {
        write_status(status, "exec", exec_errno);
        kill_leftovers();
        return 127;
    }
    if (WIFSIGNALED(st)) {
        write_status(status, "signal", WTERMSIG(st));
    } else {
        write_status(status, "exit", WEXITSTATUS(st));
    }
    kill_leftovers();
    return end_like(st);
}
