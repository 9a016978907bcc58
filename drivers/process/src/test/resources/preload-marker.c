/*
 * A "task-written" preload library for the tests that replay LD_PRELOAD attacks (PreloadMarker): on load it
 * creates marker-uid-<euid> in $MARKER_HOST_DIR (a host path) and in /local (an exec task's directory inside its
 * chroot), so the test sees which users ran it.
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
