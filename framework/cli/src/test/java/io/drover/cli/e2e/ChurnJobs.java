package io.drover.cli.e2e;

import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Random;

/**
 * Random batch jobs for the kill -9 churn ({@link AgentKillChurnTest}), drawn from a seeded {@link Random}: one
 * group (no restarts) with a main task — mock, or raw_exec that is short, long, exits non-zero or ignores
 * SIGTERM/SIGINT, or now and then a java task — and optionally a second main task, a prestart task, a prestart
 * sidecar, a poststart task and a poststop task. Every raw_exec and java run appends a line to its run counter
 * {@code marks/<job>.<task>.runs}, so a re-run or a run the agent never reported shows.
 */
final class ChurnJobs {
    /**
     * A task whose runs are counted: which job and task, the exit code it ends with when not killed, and the number
     * of its kill_signal.
     */
    record Counted(String jobId, String task, String driver, int exitCode, int killSignal, Path runs) {}

    private final Path dir;
    private final Path marks;
    private final Path script;
    private final String javaClassPath;
    private final Map<String, Counted> counted = new LinkedHashMap<>();

    ChurnJobs(Path dir) throws Exception {
        this.dir = Files.createDirectories(dir.resolve("jobs"));
        this.marks = Files.createDirectories(dir.resolve("marks"));
        // java tasks run as nobody when the agent is root (the java driver's default_user): they may reach and
        // write their run counters only if the test's private temp dir is traversable and marks/ writable by all
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        Files.setPosixFilePermissions(marks, PosixFilePermissions.fromString("rwxrwxrwx"));
        // $1 mark, $2 exit code, $3 seconds to sleep, $4 "ignore" to ignore SIGTERM and SIGINT (sleep inherits it)
        this.script = Files.writeString(marks.resolve("churn.sh"), """
                echo "$NOMAD_ALLOC_ID $$" >> "$1.runs"
                if [ "$4" = ignore ]; then trap '' TERM INT; fi
                sleep "$3"
                exit "$2"
                """);
        this.javaClassPath = Path.of(ChurnJavaTask.class.getProtectionDomain().getCodeSource().getLocation().toURI())
                .toString();
    }

    /** The job file of job {@code id}, drawn from {@code rnd}. */
    Path next(String id, Random rnd) throws IOException {
        List<String> tasks = new ArrayList<>();
        tasks.add(main(id, "main", rnd));
        if (rnd.nextInt(4) == 0) {
            tasks.add(rnd.nextBoolean() ? mock("main2", rnd, "") : raw(id, "main2", rnd, 0, seconds(rnd, 50, 600), false, ""));
        }
        if (rnd.nextInt(3) == 0) {
            tasks.add(raw(id, "pre", rnd, 0, seconds(rnd, 20, 300), false, hook("prestart", false)));
        }
        if (rnd.nextInt(4) == 0) {
            tasks.add(raw(id, "side", rnd, 0, "30", rnd.nextInt(3) == 0, hook("prestart", true)));
        }
        if (rnd.nextInt(4) == 0) {
            tasks.add(raw(id, "post", rnd, 0, seconds(rnd, 20, 400), false, hook("poststart", false)));
        }
        if (rnd.nextInt(2) == 0) {
            tasks.add(rnd.nextInt(3) == 0 ? mock("stop", rnd, hook("poststop", false))
                    : raw(id, "stop", rnd, 0, seconds(rnd, 20, 500), false, hook("poststop", false)));
        }
        return Files.writeString(dir.resolve(id + ".hcl"), """
                job "%s" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                %s
                  }
                }
                """.formatted(id, String.join("\n", tasks)));
    }

    /** Every counted task of every job drawn so far, by {@code job.task}. */
    Map<String, Counted> counted() {
        return counted;
    }

    /** How many runs of the task the counter recorded in allocation {@code allocId}. */
    static long runs(Counted c, String allocId) throws IOException {
        return runLines(c).stream().filter(l -> l.startsWith(allocId + " ")).count();
    }

    /** One line per run: {@code <alloc id> <pid>}. */
    static List<String> runLines(Counted c) throws IOException {
        return Files.exists(c.runs()) ? Files.readAllLines(c.runs()) : List.of();
    }

    private String main(String id, String name, Random rnd) {
        int kind = rnd.nextInt(16);
        if (kind < 4) {
            return mock(name, rnd, "");
        } else if (kind < 8) {
            return raw(id, name, rnd, 0, seconds(rnd, 20, 500), false, ""); // short
        } else if (kind < 11) {
            return raw(id, name, rnd, 0, seconds(rnd, 1000, 4000), false, ""); // long
        } else if (kind < 13) {
            return raw(id, name, rnd, 1 + rnd.nextInt(5), seconds(rnd, 20, 800), false, ""); // non-zero
        } else if (kind < 15) {
            return raw(id, name, rnd, 0, seconds(rnd, 500, 3000), true, ""); // ignores SIGTERM/SIGINT
        }
        return java(id, name, rnd);
    }

    private String raw(String id, String name, Random rnd, int code, String sleep, boolean ignoreTerm,
            String lifecycle) {
        String killSignal = rnd.nextBoolean() ? "SIGTERM" : "SIGINT";
        Path mark = mark(id, name, "raw_exec", code, killSignal.equals("SIGTERM") ? 15 : 2);
        return """
                    task "%s" {
                      driver       = "raw_exec"
                      kill_signal  = "%s"
                      kill_timeout = "%dms"
                      %s
                      config {
                        command = "/bin/sh"
                        args    = ["%s", "%s", "%d", "%s", "%s"]
                      }
                    }
                """.formatted(name, killSignal, 100 + rnd.nextInt(400), lifecycle,
                script, mark, code, sleep, ignoreTerm ? "ignore" : "-");
    }

    private String java(String id, String name, Random rnd) {
        int code = rnd.nextInt(3) == 0 ? 3 : 0;
        Path mark = mark(id, name, "java", code, 15);
        return """
                    task "%s" {
                      driver       = "java"
                      kill_signal  = "SIGTERM"
                      kill_timeout = "300ms"
                      config {
                        class       = "%s"
                        class_path  = "%s"
                        jvm_options = ["-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m"]
                        args        = ["%s", "%d", "%d"]
                      }
                    }
                """.formatted(name, ChurnJavaTask.class.getName(), javaClassPath, mark, 100 + rnd.nextInt(1500),
                code);
    }

    private static String mock(String name, Random rnd, String lifecycle) {
        return """
                    task "%s" {
                      driver = "mock"
                      %s
                      config {
                        run_for   = "%dms"
                        exit_code = %d
                      }
                    }
                """.formatted(name, lifecycle, 10 + rnd.nextInt(1500), rnd.nextInt(6) == 0 ? 2 : 0);
    }

    private static String hook(String hook, boolean sidecar) {
        return "lifecycle {\n        hook    = \"%s\"\n        sidecar = %s\n      }".formatted(hook, sidecar);
    }

    private static String seconds(Random rnd, int minMillis, int maxMillis) {
        int ms = minMillis + rnd.nextInt(maxMillis - minMillis);
        return "%d.%03d".formatted(ms / 1000, ms % 1000);
    }

    private Path mark(String id, String task, String driver, int code, int killSignal) {
        Path mark = marks.resolve(id + "." + task);
        counted.put(id + "." + task, new Counted(id, task, driver, code, killSignal, Path.of(mark + ".runs")));
        return mark;
    }
}
