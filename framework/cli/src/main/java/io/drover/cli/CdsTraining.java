package io.drover.cli;

import io.drover.agent.Agent;
import io.drover.core.config.AgentConfigParser;
import java.io.IOException;
import java.io.OutputStream;
import java.io.PrintStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import picocli.CommandLine;

/**
 * The launcher's training run for the AppCDS archive of every command but {@code agent} (docs/cli.md, the
 * launcher): one JVM that loads what the commands load, so that the class list it leaves covers them all.
 * It runs, in-process and with their output discarded, {@code drover run} of the seed job, then an agent on a
 * free loopback port (mock driver, a temporary data_dir) and against it {@code job run}, {@code job status},
 * {@code alloc status} (text and JSON), {@code alloc logs}, {@code plugin status} and {@code system gc}, then
 * {@code --help} of every command and subcommand (taken from the command model, so new commands are covered).
 * With a second argument, it also starts {@link CdsClientTraining} against that agent in a child JVM that writes
 * its class list there: the launcher's smaller archive of the short read-only commands (bounded to 60 s; killed
 * after that, and then that list is missing and the launcher dumps no client archive).
 * Exits 0 once done, whatever the commands answered; 1 only when it could not run at all.
 *
 * <p>Usage: {@code CdsTraining DROVER_HOME [CLIENT_CLASS_LIST]}. Runs on the main thread; the agent's threads end
 * with it.
 */
public final class CdsTraining {
    private static final String JOB = """
            job "cds-training" {
              type = "batch"
              group "g" {
                task "main" {
                  driver = "mock"
                  config {
                    run_for       = "1ms"
                    stdout_string = "trained\\n"
                  }
                }
              }
            }
            """;

    private CdsTraining() {}

    public static void main(String[] args) throws Exception {
        if (args.length != 1 && args.length != 2) {
            System.err.println("usage: CdsTraining DROVER_HOME [CLIENT_CLASS_LIST]");
            System.exit(ExitCodes.USAGE);
        }
        Path home = Path.of(args[0]);
        // every command reads the environment (CliContext.system: DROVER_ADDR, TERM): its classes too in the list
        System.getenv().entrySet().forEach(e -> e.getKey().isEmpty());
        CliContext quiet = new CliContext(new PrintStream(OutputStream.nullOutputStream()),
                new PrintStream(OutputStream.nullOutputStream()), false, Map.of(),
                CliContext.localZone(java.util.TimeZone.getDefault()));
        Main.execute(new String[] {"run", home.resolve("sample-jobs/poststop.hcl").toString()}, quiet);
        Path dir = Files.createTempDirectory("drover-cds-");
        try {
            clients(home, dir, quiet, args.length == 2 ? Path.of(args[1]) : null);
            for (List<String> help : helps(quiet)) {
                Main.execute(help.toArray(String[]::new), quiet);
            }
            Main.execute(new String[] {"--version"}, quiet);
        } finally {
            delete(dir);
        }
        System.exit(ExitCodes.OK);
    }

    private static void clients(Path home, Path dir, CliContext quiet, Path clientList) throws Exception {
        Path config = Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                bind_addr  = "127.0.0.1"
                ports {
                  http = 0
                }
                """.formatted(hcl(dir.resolve("data")), hcl(home.resolve("plugins/dist"))));
        Path job = Files.writeString(dir.resolve("job.hcl"), JOB);
        try (Agent agent = Agent.start(AgentConfigParser.parse(config), null)) {
            String addr = agent.address();
            Main.execute(new String[] {"job", "run", "-address", addr, job.toString()}, quiet);
            String id = agent.engine().allocations().stream().map(a -> a.id()).findFirst().orElse("none");
            for (String[] c : List.of(new String[] {"job", "status"}, new String[] {"job", "status", "cds-training"},
                    new String[] {"alloc", "status", id}, new String[] {"alloc", "status", "-json", id},
                    new String[] {"alloc", "logs", id, "main"}, new String[] {"alloc", "logs", "-stderr", id, "main"},
                    new String[] {"alloc", "status", "no-such-alloc"}, new String[] {"plugin", "status"},
                    new String[] {"system", "gc"})) {
                String[] withAddress = Stream.concat(Stream.of(c), Stream.of("-address", addr)).toArray(String[]::new);
                Main.execute(withAddress, quiet);
            }
            if (clientList != null) {
                clientTraining(home, clientList, addr, id);
            }
        }
        Main.execute(new String[] {"job", "status", "-address", "http://127.0.0.1:1"}, quiet); // no agent
    }

    /** {@link CdsClientTraining} in its own JVM with the client commands' flags, its class list to {@code list}. */
    private static void clientTraining(Path home, Path list, String addr, String id) throws Exception {
        String javaCmd = ProcessHandle.current().info().command().orElse("java");
        Process p = new ProcessBuilder(javaCmd, "@" + home.resolve("framework/cli/jvm-client.args"),
                "-Ddrover.home=" + home, "-XX:DumpLoadedClassList=" + list, "-Xlog:cds=off",
                "-cp", System.getProperty("java.class.path"), CdsClientTraining.class.getName(), addr, id)
                .redirectInput(ProcessBuilder.Redirect.from(new java.io.File("/dev/null")))
                .redirectOutput(ProcessBuilder.Redirect.DISCARD).redirectError(ProcessBuilder.Redirect.DISCARD)
                .start();
        if (!p.waitFor(60, java.util.concurrent.TimeUnit.SECONDS)) {
            p.destroyForcibly().waitFor();
            Files.deleteIfExists(list);
        }
    }

    /** {@code --help} of the root, of every command and of every subcommand, from the full command model. */
    private static List<List<String>> helps(CliContext quiet) {
        List<List<String>> out = new ArrayList<>();
        out.add(List.of("--help"));
        for (Map.Entry<String, CommandLine> c : Main.model(quiet).getSubcommands().entrySet()) {
            if (c.getKey().equals("help")) {
                continue;
            }
            out.add(List.of(c.getKey(), "--help"));
            for (String sub : c.getValue().getSubcommands().keySet()) {
                out.add(List.of(c.getKey(), sub, "--help"));
            }
        }
        return out;
    }

    private static String hcl(Path p) {
        return p.toAbsolutePath().toString().replace("\\", "\\\\").replace("\"", "\\\"");
    }

    private static void delete(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(Comparator.reverseOrder()).toList()) {
                Files.deleteIfExists(p);
            }
        }
    }
}
