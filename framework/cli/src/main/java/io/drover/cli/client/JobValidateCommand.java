package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ConfigOption;
import io.drover.cli.ExitCodes;
import io.drover.cli.PluginDirs;
import io.drover.cli.VarOptions;
import io.drover.cli.format.TerminalText;
import io.drover.cli.run.DevModePlugins;
import io.drover.core.config.AgentConfig;
import io.drover.core.driver.DriverRegistry;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobDriverCheck;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.spec.parse.hcl.HclInputs;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;

/**
 * {@code drover job validate FILE...}: Nomad's {@code job validate}, on this machine (no agent needed). Each file
 * is read as {@code drover run} reads it (variables from {@code -var}, {@code -var-file}, {@code NOMAD_VAR_*})
 * and checked against the drivers {@code drover run} would load (their config checks included). Prints "Job
 * validation successful" (stdout) when every file is valid, else every problem of every file, one line each
 * (stderr), and exits 1, as Nomad's does. Nothing runs.
 */
@Command(name = "validate",
        sortOptions = false,
        mixinStandardHelpOptions = true,
        description = {"Checks job files without running them: syntax, variables, keys and values, and each task's "
                + "driver and driver config against the drivers 'drover run' would load. Prints every problem, one "
                + "line each."},
        footer = {"", "Exit codes: 0 every job is valid, 1 a job has a problem, 2 bad usage or a bad -var / -var-file."})
public final class JobValidateCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Mixin
    private ConfigOption config;

    @Mixin
    private VarOptions vars;

    @Parameters(arity = "1..*", paramLabel = "FILE",
            description = "Job files: Nomad jobspec HCL (.hcl, .nomad) or Nomad API JSON (.json).")
    private List<Path> files;

    JobValidateCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() throws Exception {
        HclInputs inputs = vars.inputs(ctx);
        AgentConfig agent = config.load();
        List<JobFileException> problems = new ArrayList<>();
        List<Job> jobs = new ArrayList<>();
        for (Path file : files) {
            if (!Files.isRegularFile(file)) {
                problems.add(new JobFileException(file.toString(), 0, "", Files.exists(file) ? "not a regular file" : "no such file"));
                continue;
            }
            try {
                jobs.add(JobFileParser.parse(file, inputs));
            } catch (JobFileException e) {
                problems.addAll(e.problems());
            }
        }
        if (!jobs.isEmpty()) {
            try (EngineRuntime runtime = EngineRuntime.real(1);
                    DriverRegistry registry = DriverRegistry.load(PluginDirs.resolve(agent),
                            DevModePlugins.merge(agent.plugins()), runtime.timers())) {
                for (Job job : jobs) {
                    problems.addAll(JobDriverCheck.check(job, registry));
                }
            }
        }
        if (!problems.isEmpty()) {
            ctx.err().println("Job validation errors:");
            for (JobFileException p : problems) {
                ctx.err().println("Error: " + TerminalText.escape(p.getMessage()));
            }
            return ExitCodes.FAILED;
        }
        ctx.out().println("Job validation successful");
        return ExitCodes.OK;
    }
}
