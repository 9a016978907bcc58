package io.drover.process;

import io.drover.driver.api.ExitResult;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.DirectoryNotEmptyException;
import java.nio.file.FileSystemException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.NoSuchFileException;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.List;

/**
 * One run's cgroup v1 directories ({@code <agent's cgroup>/drover/<allocId>.<task>} of the memory and the cpu
 * controller), made by {@link TaskCgroups#create} and joined by the shim's child before the task's exec. Files
 * are read and written with {@code O_NOFOLLOW}. Immutable; its methods do a few small file reads or an rmdir each
 * and may be called from any thread (the reaper thread calls {@link #finish} once the run has ended; the
 * directories are then removed on the {@link CgroupWorker}'s thread).
 *
 * @param memory the memory controller's directory
 * @param cpu the cpu controller's directory, null when that controller is not mounted apart
 */
public record TaskCgroup(Path memory, Path cpu) {
    /** The message of a run the kernel's OOM killer ended, as Nomad's drivers word it. */
    public static final String OOM_KILLED = "OOM Killed";

    /** The directories the task joins, memory first. */
    public List<Path> dirs() {
        return cpu == null ? List.of(memory) : List.of(memory, cpu);
    }

    /** How many times the kernel's OOM killer killed a process of this cgroup ({@code memory.oom_control}'s {@code oom_kill}); -1 when unreadable. */
    public long oomKills() {
        try {
            for (String line : read(memory.resolve("memory.oom_control")).split("\n")) {
                if (line.startsWith("oom_kill ")) {
                    return Long.parseLong(line.substring("oom_kill ".length()).trim());
                }
            }
        } catch (IOException | NumberFormatException e) {
            // reported as unknown
        }
        return -1;
    }

    /**
     * The run's exit as Nomad reports it: when the OOM killer killed anything in the cgroup, {@code oomKilled} and
     * the message {@value #OOM_KILLED} (before the exit's own message); then hands the directories to the
     * {@link CgroupWorker}, which removes them on its own thread, so the exit is reported without waiting for the
     * rmdirs. Called once, when the run has ended (every process of it is dead and reaped: the shim kills what the
     * task left).
     */
    public ExitResult finish(ExitResult exit) {
        ExitResult result = exit;
        if (exit != null && oomKills() > 0) {
            String own = OutsideKill.strip(exit.message()); // the killer is known: the cgroup's OOM killer
            String message = own.isEmpty() ? OOM_KILLED : OOM_KILLED + "; " + own;
            result = new ExitResult(exit.exitCode(), exit.signal(), true, message);
        }
        CgroupWorker.instance().submit(this);
        return result;
    }

    /**
     * {@code cpu.shares} of a SIGKILLed run ({@link CgroupWorker#raiseForKill}): the kernel's default weight, that
     * of any nice-0 process outside task cgroups (the agent's kill-path threads run at nice -10, above it).
     */
    public static final long KILLED_CPU_SHARES = 1024;

    /** Writes {@value #KILLED_CPU_SHARES} to the cpu directory's {@code cpu.shares}; nothing when it is gone. */
    void raiseForKill() {
        if (cpu != null) {
            try {
                write(cpu.resolve("cpu.shares"), Long.toString(KILLED_CPU_SHARES));
            } catch (IOException e) {
                // removed meanwhile: the run has ended
            }
        }
    }

    /**
     * Removes the directories (rmdir: the kernel refuses while a process is inside). Idempotent.
     *
     * @return whether none is left
     */
    public boolean remove() {
        boolean gone = true;
        for (Path dir : dirs()) {
            gone &= TaskCgroups.rmdir(dir);
        }
        return gone;
    }

    /** Whether no process is in the memory directory (also true when it is gone). */
    public boolean empty() {
        try {
            return read(memory.resolve("cgroup.procs")).isBlank();
        } catch (NoSuchFileException e) {
            return true;
        } catch (IOException e) {
            return false;
        }
    }

    /** A control file's content, never through a link. */
    static String read(Path file) throws IOException {
        try (var in = Files.newInputStream(file, StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS)) {
            return new String(in.readNBytes(64 * 1024), StandardCharsets.US_ASCII);
        }
    }

    /** Writes a control file (it exists: cgroupfs makes them), never through a link. */
    static void write(Path file, String value) throws IOException {
        try (var out = Files.newOutputStream(file, StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
            out.write(value.getBytes(StandardCharsets.US_ASCII));
        } catch (FileSystemException e) {
            throw e instanceof NoSuchFileException || e instanceof DirectoryNotEmptyException ? e
                    : new IOException("write " + value + " to " + file + ": " + (e.getReason() == null ? e : e.getReason()), e);
        }
    }
}
