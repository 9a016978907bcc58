package io.drover.cli;

import java.io.OutputStream;
import java.io.PrintStream;
import java.util.List;
import java.util.Map;

/**
 * The training run of the client archive (docs/cli.md, the launcher): the short read-only commands' own JVM, so
 * that the class list it leaves holds what they load and nothing of the agent, {@code run} or the engine. The
 * archive of every command (38 MB, ~5,100 classes) cost the hot commands ~14 ms of CPU of each call to map and
 * relocate, against ~17 MB for this one (docs/performance.md, "Session 12"). {@link CdsTraining} starts it as a
 * child JVM while its agent is up. It runs, in-process with their output discarded, what the launcher gives
 * this archive: {@code alloc status} (text, {@code -json}, {@code -verbose}, an unknown ID), {@code alloc logs},
 * {@code job status}, {@code plugin status}, their {@code --help} and usage errors, the root's usage and version,
 * and a call with no agent. Exits 0 once done, whatever the commands answered.
 *
 * <p>Usage: {@code CdsClientTraining ADDRESS ALLOC_ID}. Runs on the main thread.
 */
public final class CdsClientTraining {
    private CdsClientTraining() {}

    public static void main(String[] args) {
        if (args.length != 2) {
            System.err.println("usage: CdsClientTraining ADDRESS ALLOC_ID");
            System.exit(ExitCodes.USAGE);
        }
        String addr = args[0];
        String id = args[1];
        // every command reads the environment (CliContext.system: DROVER_ADDR, TERM): its classes too in the list
        System.getenv().entrySet().forEach(e -> e.getKey().isEmpty());
        CliContext quiet = new CliContext(new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(OutputStream.nullOutputStream()), false, Map.of(),
                CliContext.localZone(java.util.TimeZone.getDefault()));
        for (List<String> line : List.<List<String>>of(
                List.of("alloc", "status", id, "-address", addr),
                List.of("alloc", "status", "-verbose", id, "-address", addr),
                List.of("alloc", "status", "-json", id, "-address", addr),
                List.of("alloc", "status", "no-such-alloc", "-address", addr),
                List.of("alloc", "logs", id, "main", "-address", addr),
                List.of("alloc", "logs", "-stderr", id, "main", "-address", addr),
                List.of("job", "status", "-address", addr),
                List.of("job", "status", "cds-training", "-address", addr),
                List.of("plugin", "status", "-address", addr),
                List.of("plugin", "status", "-verbose", "-address", addr),
                List.of("job", "status", "-address", "http://127.0.0.1:1"), // no agent
                List.of("alloc", "status", "-address", addr), // a usage error: picocli's
                List.of("alloc", "status", "--help"), List.of("alloc", "logs", "--help"),
                List.of("job", "status", "--help"), List.of("plugin", "status", "--help"),
                List.of(), List.of("--help"), List.of("--version"))) {
            Main.execute(line.toArray(String[]::new), quiet);
        }
        System.exit(ExitCodes.OK);
    }
}
