/*
 * Per-launch cost of the two designs that record a task's exit status while no agent runs (docs/performance.md,
 * "Re-attach: shim per task vs one executor"), measured in C so that only the design differs:
 *   direct    posix_spawn(/bin/true) in a new session + waitpid: no re-attach possible (baseline)
 *   shim      posix_spawn(drover-shim STATUS /bin/true) + waitpid: what Drover does
 *   executor  one long-lived process that owns all tasks: a request over a socketpair, it posix_spawns
 *             /bin/true in a new session, waitpids it and writes the status back (the round trip a launch
 *             and its exit notification cost in that design)
 * Usage: bench-supervision-designs SHIM STATUS_FILE [N]   (prints medians in microseconds)
 */
#define _GNU_SOURCE
#include <spawn.h>
#include <stdio.h>
#include <stdlib.h>
#include <sys/socket.h>
#include <sys/wait.h>
#include <time.h>
#include <unistd.h>

extern char **environ;

static long now_ns(void) {
    struct timespec t;
    clock_gettime(CLOCK_MONOTONIC, &t);
    return t.tv_sec * 1000000000L + t.tv_nsec;
}

static int cmp(const void *a, const void *b) {
    long x = *(const long *) a, y = *(const long *) b;
    return x < y ? -1 : x > y;
}

static int spawn_wait(char *const argv[]) {
    posix_spawnattr_t attr;
    posix_spawnattr_init(&attr);
    posix_spawnattr_setflags(&attr, 0x80 /* POSIX_SPAWN_SETSID */);
    pid_t pid;
    if (posix_spawn(&pid, argv[0], NULL, &attr, argv, environ) != 0) {
        return -1;
    }
    int st;
    waitpid(pid, &st, 0);
    posix_spawnattr_destroy(&attr);
    return st;
}

static double median_us(long *v, int n) {
    qsort(v, (size_t) n, sizeof *v, cmp);
    return v[n / 2] / 1000.0;
}

int main(int argc, char **argv) {
    if (argc < 3) {
        fprintf(stderr, "usage: %s SHIM STATUS_FILE [N]\n", argv[0]);
        return 2;
    }
    int n = argc > 3 ? atoi(argv[3]) : 500;
    long *d = calloc((size_t) n, sizeof *d), *s = calloc((size_t) n, sizeof *s), *e = calloc((size_t) n, sizeof *e);
    char *direct[] = {"/bin/true", NULL};
    char *shim[] = {argv[1], argv[2], "/bin/true", "true", NULL};

    int sv[2];
    socketpair(AF_UNIX, SOCK_SEQPACKET, 0, sv);
    pid_t executor = fork();
    if (executor == 0) {
        close(sv[0]);
        char req;
        while (read(sv[1], &req, 1) == 1) {
            int st = spawn_wait(direct);
            if (write(sv[1], &st, sizeof st) != sizeof st) {
                break;
            }
        }
        _exit(0);
    }
    close(sv[1]);

    for (int i = -100; i < n; i++) { /* 100 warm-up rounds, interleaved like drover bench's launch row */
        long t0 = now_ns();
        spawn_wait(direct);
        long t1 = now_ns();
        spawn_wait(shim);
        long t2 = now_ns();
        int st;
        if (write(sv[0], "x", 1) != 1 || read(sv[0], &st, sizeof st) != sizeof st) {
            return 1;
        }
        long t3 = now_ns();
        if (i >= 0) {
            d[i] = t1 - t0;
            s[i] = t2 - t1;
            e[i] = t3 - t2;
        }
    }
    close(sv[0]);
    waitpid(executor, NULL, 0);
    printf("%d launches of /bin/true, medians: direct %.0f us, shim %.0f us, executor round trip %.0f us\n", n,
            median_us(d, n), median_us(s, n), median_us(e, n));
    return 0;
}
