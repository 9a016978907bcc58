package io.drover.cli.client;

import io.drover.cli.ExitCodes;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Spec;

/** {@code drover job}: job commands against a running agent; alone it shows its usage (exit code 2). */
@Command(name = "job",
        mixinStandardHelpOptions = true,
        description = JobCommand.SUMMARY,
        subcommands = {JobRunCommand.class, JobStatusCommand.class, JobStopCommand.class, JobValidateCommand.class,
            JobDispatchCommand.class, JobPeriodicCommand.class})
public final class JobCommand implements Callable<Integer> {
    /** The first line of its description: what the root's usage lists (built in code, {@code Main}). */
    public static final String SUMMARY = "Job commands (talk to a running agent).";

    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }
}
