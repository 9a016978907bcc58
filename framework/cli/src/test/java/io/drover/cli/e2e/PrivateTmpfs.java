package io.drover.cli.e2e;

import java.io.BufferedReader;
import java.io.IOException;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import java.util.concurrent.TimeUnit;

/**
 * A small tmpfs (or a loop-mounted ext4 image) mounted on a directory in a private mount namespace ({@code unshare -m}), so no mount can leak out
 * of the test: a holder shell owns the namespace and waits on its stdin (the test JVM's pipe), so it ends with
 * the test JVM even after a crash, and the mount with it. Agents run inside with {@link #enter()}; the test reaches
 * the files through {@code /proc/<holder>/root}. Needs root (or CAP_SYS_ADMIN), as on this machine and CI.
 */
final class PrivateTmpfs implements AutoCloseable {
    private final Process holder;
    private final Path dir;

    private PrivateTmpfs(Process holder, Path dir) {
        this.holder = holder;
        this.dir = dir;
    }

    /**
     * Mounts a tmpfs of {@code size} (mount's syntax: {@code 8m}) on {@code dir}.
     *
     * @return empty with the reason when this machine does not allow it (not root, no unshare, a sandbox)
     */
    static Optional<PrivateTmpfs> mount(Path dir, String size) throws IOException, InterruptedException {
        return holder(dir, "mount -t tmpfs -o size=\"$1\",mode=0755 tmpfs \"$0\"", size);
    }

    /**
     * Mounts the ext4 file system in {@code image} on {@code dir} through a loop device, with
     * {@code errors=remount-ro} (an error makes it read-only, as a failing disk would); the loop device is freed
     * when the namespace ends.
     */
    static Optional<PrivateTmpfs> mountExt4(Path dir, Path image) throws IOException, InterruptedException {
        return holder(dir, "mount -o loop,errors=remount-ro \"$1\" \"$0\"", image.toString());
    }

    private static Optional<PrivateTmpfs> holder(Path dir, String mount, String arg)
            throws IOException, InterruptedException {
        Files.createDirectories(dir);
        Process p;
        try {
            p = new ProcessBuilder("unshare", "-m", "--propagation", "private", "--", "sh", "-c",
                    mount + " && echo mounted && read _", dir.toString(), arg).redirectErrorStream(true).start();
        } catch (IOException e) {
            return Optional.empty();
        }
        BufferedReader out = new BufferedReader(new InputStreamReader(p.getInputStream(), StandardCharsets.UTF_8));
        String first = out.readLine();
        if (!"mounted".equals(first)) {
            p.destroyForcibly();
            p.waitFor(10, TimeUnit.SECONDS);
            unavailable = "cannot mount a tmpfs in a private mount namespace: " + first;
            return Optional.empty();
        }
        return Optional.of(new PrivateTmpfs(p, dir.toAbsolutePath().normalize()));
    }

    /** Why the last {@link #mount} failed. */
    static volatile String unavailable = "unshare not found";

    /** The command prefix that runs a program inside the namespace (nsenter execs it: same pid). */
    List<String> enter() {
        return List.of("nsenter", "-t", String.valueOf(holder.pid()), "-m", "--");
    }

    /** {@code path} (under the mounted dir) as the test, outside the namespace, reaches it. */
    Path outside(Path path) {
        return Path.of("/proc/" + holder.pid() + "/root" + path.toAbsolutePath().normalize());
    }

    /** Runs {@code command} inside the namespace and returns its output (stdout and stderr). */
    String run(String... command) throws IOException, InterruptedException {
        List<String> all = new java.util.ArrayList<>(enter());
        all.addAll(List.of(command));
        Process p = new ProcessBuilder(all).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        p.waitFor(10, TimeUnit.SECONDS);
        return out;
    }

    /** The mounted directory as seen from outside the namespace. */
    Path root() {
        return outside(dir);
    }

    /**
     * Fills the file system with {@code name} until it is full (ENOSPC).
     *
     * @return the filler file, outside view
     */
    Path fill(String name) throws IOException {
        Path filler = root().resolve(name);
        byte[] chunk = new byte[64 << 10];
        try (var out = Files.newOutputStream(filler)) {
            while (true) {
                out.write(chunk);
            }
        } catch (IOException e) {
            if (!String.valueOf(e.getMessage()).contains("No space left on device")) {
                throw e;
            }
        }
        return filler;
    }

    @Override
    public void close() throws InterruptedException {
        holder.destroyForcibly();
        holder.waitFor(10, TimeUnit.SECONDS);
    }
}
