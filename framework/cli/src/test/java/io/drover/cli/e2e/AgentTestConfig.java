package io.drover.cli.e2e;

import java.nio.file.Files;
import java.nio.file.Path;

/** An agent config for child-process tests: any free port, the mock plugin the build copies, a data dir. */
final class AgentTestConfig {
    private AgentTestConfig() {}

    static Path write(Path dir) throws Exception {
        return write(dir, """
                  max_kill_timeout = "5s"
                """);
    }

    /** As {@link #write}, with these lines as the {@code client} block's body. */
    static Path write(Path dir, String clientBody) throws Exception {
        String plugins = System.getProperty("drover.test.plugins");
        if (plugins == null) {
            throw new IllegalStateException("system property drover.test.plugins is unset: run 'mvn verify'");
        }
        Path data = dir.resolve("data");
        return Files.writeString(dir.resolve("agent.hcl"), """
                data_dir   = "%s"
                plugin_dir = "%s"
                log_level  = "INFO"
                ports {
                  http = 0
                }
                client {
                %s}
                """.formatted(escape(data.toString()), escape(plugins), clientBody));
    }

    /** As {@link #write}, with raw_exec enabled ({@code plugin "raw_exec" { config { enabled = true } }}). */
    static Path writeWithRawExec(Path dir) throws Exception {
        return withRawExec(write(dir));
    }

    /** As {@link #write(Path, String)}, with raw_exec enabled. */
    static Path writeWithRawExec(Path dir, String clientBody) throws Exception {
        return withRawExec(write(dir, clientBody));
    }

    private static Path withRawExec(Path config) throws Exception {
        Files.writeString(config, Files.readString(config) + """
                plugin "raw_exec" {
                  config {
                    enabled = true
                  }
                }
                """);
        return config;
    }

    /** A batch job: task {@code main} runs for {@code mainRunFor}, then the poststop task {@code poststop}. */
    static Path job(Path dir, String id, String mainRunFor) throws Exception {
        return Files.writeString(dir.resolve(id + ".hcl"), """
                job "%s" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 0
                      mode     = "fail"
                    }
                    task "main" {
                      driver = "mock"
                      config {
                        run_for = "%s"
                      }
                    }
                    task "poststop" {
                      driver = "mock"
                      lifecycle {
                        hook = "poststop"
                      }
                      config {
                        run_for = "50ms"
                      }
                    }
                  }
                }
                """.formatted(id, mainRunFor));
    }

    /**
     * A batch job whose mock task {@code main} fails after 50 ms and is restarted every 50 ms, for a day: a steady
     * stream of events (each run adds Started, Terminated, Restarting).
     */
    static Path flapJob(Path dir, String id) throws Exception {
        return Files.writeString(dir.resolve(id + ".hcl"), """
                job "%s" {
                  type = "batch"
                  group "g" {
                    restart {
                      attempts = 100000
                      interval = "24h"
                      delay    = "50ms"
                      mode     = "fail"
                    }
                    task "main" {
                      driver = "mock"
                      config {
                        run_for   = "50ms"
                        exit_code = 1
                      }
                    }
                  }
                }
                """.formatted(id));
    }

    private static String escape(String path) {
        return path.replace("\\", "\\\\").replace("\"", "\\\"");
    }
}
