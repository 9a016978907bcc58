package io.drover.cli.e2e;

import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;

/**
 * The program of the churn's java tasks ({@link ChurnJobs}), run by the java driver in a child JVM: appends one
 * line {@code <alloc id> <pid>} to {@code MARK.runs} (its run counter), sleeps {@code MILLIS}, exits with {@code CODE}.
 */
public final class ChurnJavaTask {
    private ChurnJavaTask() {}

    public static void main(String[] args) throws Exception {
        Files.writeString(Path.of(args[0] + ".runs"),
                System.getenv("NOMAD_ALLOC_ID") + " " + ProcessHandle.current().pid() + "\n",
                StandardOpenOption.CREATE, StandardOpenOption.APPEND);
        Thread.sleep(Long.parseLong(args[1]));
        System.exit(Integer.parseInt(args[2]));
    }
}
