package io.drover.process;

import jnr.ffi.LibraryLoader;
import jnr.ffi.Memory;
import jnr.ffi.Pointer;
import jnr.ffi.Runtime;

/**
 * Loads {@link LibC} once per class loader (the first call costs ~280 ms of stub generation: call {@link #get()}
 * from a driver's {@code init}, off the critical path). Thread-safe; the bound functions may be called from any
 * thread.
 */
final class Native {
    // errno values (Linux, x86_64 and aarch64 alike)
    static final int EINTR = 4;
    static final int ESRCH = 3;
    static final int ECHILD = 10;
    static final int EAGAIN = 11;
    static final int ENOENT = 2;
    static final int ENXIO = 6;
    static final int EEXIST = 17;
    static final int ENOTDIR = 20;
    static final int EISDIR = 21;
    static final int ELOOP = 40;

    // open(2)
    static final int O_RDONLY = 0;
    static final int O_WRONLY = 1;
    static final int O_CREAT = 0100;
    static final int O_EXCL = 0200;
    static final int O_APPEND = 02000;
    static final int O_DIRECTORY = 0200000;
    static final int O_NOFOLLOW = 0400000;
    static final int O_CLOEXEC = 02000000;

    static final int O_NONBLOCK = 04000;
    static final int F_GETFL = 3;
    static final int F_SETFL = 4;

    // posix_spawnattr_setflags
    static final short POSIX_SPAWN_SETSIGDEF = 0x04;
    static final short POSIX_SPAWN_SETSIGMASK = 0x08;
    static final short POSIX_SPAWN_SETSID = 0x80;

    // waitpid
    static final int WNOHANG = 1;

    // epoll
    static final int EPOLL_CLOEXEC = O_CLOEXEC;
    static final int EPOLL_CTL_ADD = 1;
    static final int EPOLL_CTL_DEL = 2;
    static final int EPOLLIN = 0x001;
    /** sizeof(struct epoll_event) on x86_64, where the struct is packed: u32 events, u64 data. */
    static final int EPOLL_EVENT_SIZE = 12;
    static final int EPOLL_DATA_OFFSET = 4;

    // eventfd
    static final int EFD_CLOEXEC = O_CLOEXEC;
    static final int EFD_NONBLOCK = 04000;

    private static final class Holder {
        static final Native INSTANCE = new Native();
    }

    final LibC libc;
    final Runtime runtime;

    private Native() {
        if (!"x86_64".equals(arch()) && !"amd64".equals(arch())) {
            throw new UnsupportedOperationException("process supervision needs Linux x86_64, this is "
                    + System.getProperty("os.name") + " " + arch());
        }
        libc = LibraryLoader.create(LibC.class).load("c");
        runtime = Runtime.getRuntime(libc);
    }

    private static String arch() {
        return System.getProperty("os.arch");
    }

    /** The bound library, loaded on first use. */
    static Native get() {
        return Holder.INSTANCE;
    }

    int errno() {
        return runtime.getLastError();
    }

    String strerror(int errno) {
        return libc.strerror(errno);
    }

    /** A NUL-terminated UTF-8 C string. */
    static byte[] cstr(String s) {
        byte[] utf8 = s.getBytes(java.nio.charset.StandardCharsets.UTF_8);
        return java.util.Arrays.copyOf(utf8, utf8.length + 1);
    }

    Pointer allocate(int size) {
        return Memory.allocateDirect(runtime, size, true);
    }
}
