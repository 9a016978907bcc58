/*
 * drover-shim: outlives the agent so that a task's true exit status is recorded even when no agent runs.
 *
 * Usage: drover-shim STATUS_FILE EXE ARGV0 [ARGS...]
 *
 * Started by the agent with posix_spawn as the leader of a new session (default dispositions, empty mask,
 * stdio and work dir already set). It forks the task (execv EXE with ARGV0 ARGS...), so the task is in the
 * shim's session and process group: the agent signals the whole group and the shim ignores every catchable
 * signal itself (set only in the shim, after the fork: the task starts with default dispositions). When the
 * task ends, the shim writes one line to STATUS_FILE atomically (STATUS_FILE.tmp, then rename):
 *   "exit N"     the task exited with code N
 *   "signal N"   signal N ended the task
 *   "exec E"     execv failed with errno E (the task never ran)
 * and exits with N, 128+N, or 127. SIGKILL to the group kills the shim too: no status is written then.
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
#include <string.h>
#include <sys/wait.h>
#include <unistd.h>

static volatile int exec_errno; /* set by the vfork child when execv fails */

static void write_status(const char *path, const char *kind, int value) {
    char tmp[4096];
    char line[64];
    if (snprintf(tmp, sizeof tmp, "%s.tmp", path) >= (int) sizeof tmp) {
        return;
    }
    int len = snprintf(line, sizeof line, "%s %d\n", kind, value);
    int fd = open(tmp, O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0644);
    if (fd < 0) {
        return;
    }
    int ok = write(fd, line, (size_t) len) == len;
    ok = close(fd) == 0 && ok;
    if (ok) {
        rename(tmp, path);
    } else {
        unlink(tmp);
    }
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
    /* the task holds stdio now: the agent's pipes see their end when the task's side closes */
    close(0);
    close(1);
    close(2);


    int st;
    while (waitpid(pid, &st, 0) < 0) {
        if (errno != EINTR) {
            return 125;
        }
    }
    if (exec_errno != 0) {
        write_status(status, "exec", exec_errno);
        return 127;
    }
    if (WIFSIGNALED(st)) {
        write_status(status, "signal", WTERMSIG(st));
        return 128 + WTERMSIG(st);
    }
    write_status(status, "exit", WEXITSTATUS(st));
    return WEXITSTATUS(st);
}
