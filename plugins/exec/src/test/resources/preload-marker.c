/*
 * A "task-written" preload library for ExecTaskEnvTest: on load it creates marker-uid-<euid> in $MARKER_HOST_DIR
 * (a host path) and in /local (the task's directory inside the chroot), so the test sees which users ran it.
 */
#include <fcntl.h>
#include <stdio.h>
#include <stdlib.h>
#include <unistd.h>

__attribute__((constructor)) static void mark(void) {
    const char *dirs[] = {getenv("MARKER_HOST_DIR"), "/local"};
    for (int i = 0; i < 2; i++) {
        if (dirs[i] == NULL) {
            continue;
        }
        char path[4096];
        snprintf(path, sizeof path, "%s/marker-uid-%d", dirs[i], (int) geteuid());
        int fd = open(path, O_WRONLY | O_CREAT | O_CLOEXEC, 0644);
        if (fd >= 0) {
            close(fd);
        }
    }
}
