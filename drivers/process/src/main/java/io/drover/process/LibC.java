package io.drover.process;

import jnr.ffi.Pointer;
import jnr.ffi.annotations.SaveError;
import jnr.ffi.byref.IntByReference;

/**
 * The few glibc (≥ 2.36) functions process supervision needs, bound through jnr-ffi. Public only because
 * jnr-ffi implements it from another class loader; use it through {@link Native}, not directly. Functions returning an error number directly (posix_spawn*) do not touch errno;
 * the others return -1 and set errno, read with {@code Runtime.getLastError()}. Paths are NUL-terminated UTF-8
 * bytes ({@link Native#cstr}), not Strings, whose conversion would follow the JVM's locale charset.
 */
public interface LibC {
    int posix_spawn(IntByReference pid, byte[] path, Pointer fileActions, Pointer attr, Pointer argv, Pointer envp);

    int posix_spawn_file_actions_init(Pointer fileActions);

    int posix_spawn_file_actions_destroy(Pointer fileActions);

    int posix_spawn_file_actions_addopen(Pointer fileActions, int fd, byte[] path, int oflag, int mode);

    int posix_spawn_file_actions_addchdir_np(Pointer fileActions, byte[] path);

    int posix_spawn_file_actions_addclosefrom_np(Pointer fileActions, int from);

    int posix_spawn_file_actions_adddup2(Pointer fileActions, int fd, int newFd);

    int posix_spawnattr_init(Pointer attr);

    int posix_spawnattr_setflags(Pointer attr, short flags);

    int posix_spawnattr_setsigmask(Pointer attr, Pointer sigset);

    int posix_spawnattr_setsigdefault(Pointer attr, Pointer sigset);

    int sigemptyset(Pointer sigset);

    int sigfillset(Pointer sigset);

    @SaveError
    int kill(int pid, int sig);

    /** The calling thread's kernel id (glibc 2.30+); cannot fail. */
    int gettid();

    /** {@code setpriority(PRIO_PROCESS, tid, nice)}: on Linux a thread id sets that one thread's nice value. */
    @SaveError
    int setpriority(int which, int who, int prio);

    @SaveError
    int waitpid(int pid, IntByReference status, int options);

    @SaveError
    int pidfd_open(int pid, int flags);

    @SaveError
    int pidfd_send_signal(int pidfd, int sig, Pointer info, int flags);

    @SaveError
    int epoll_create1(int flags);

    @SaveError
    int epoll_ctl(int epfd, int op, int fd, Pointer event);

    @SaveError
    int epoll_wait(int epfd, Pointer events, int maxEvents, int timeoutMillis);

    @SaveError
    int eventfd(int initval, int flags);

    @SaveError
    long read(int fd, Pointer buf, long count);

    @SaveError
    long write(int fd, Pointer buf, long count);

    /** The same call for bytes of the Java heap (copied in, not back). */
    @SaveError
    long write(int fd, @jnr.ffi.annotations.In byte[] buf, long count);

    int close(int fd);

    @SaveError
    int openat(int dirfd, byte[] path, int flags, int mode);

    /** {@code buf}: a struct stat (144 bytes on x86_64). */
    @SaveError
    int fstat(int fd, Pointer buf);

    /** Changes the mode of the open file {@code fd} (never a path, so never through a link). */
    @SaveError
    int fchmod(int fd, int mode);

    @SaveError
    int unlinkat(int dirfd, byte[] path, int flags);

    @SaveError
    int open(byte[] path, int flags, int mode);

    @SaveError
    int pipe2(@jnr.ffi.annotations.Out int[] fds, int flags);

    /** Declared with a fixed int argument: safe on x86_64, where the variadic convention only adds %al. */
    @SaveError
    int fcntl(int fd, int cmd, int arg);

    String strerror(int errnum);
}
