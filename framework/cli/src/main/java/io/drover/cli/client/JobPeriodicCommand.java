package io.drover.cli.client;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.util.concurrent.Callable;
import picocli.CommandLine;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Parameters;
import picocli.CommandLine.Spec;

/** {@code drover job periodic}: Nomad's {@code job periodic} commands; alone it shows its usage (exit 2). */
@Command(name = "periodic",
        mixinStandardHelpOptions = true,
        description = "Periodic job commands.",
        subcommands = {JobPeriodicCommand.Force.class})
public final class JobPeriodicCommand implements Callable<Integer> {
    @Spec
    private CommandLine.Model.CommandSpec spec;

    @Override
    public Integer call() {
        spec.commandLine().usage(spec.commandLine().getErr());
        return ExitCodes.USAGE;
    }

    /** {@code drover job periodic force JOB}: {@code POST /v1/job/:id/periodic/force}, a child launched now. */
    @Command(name = "force",
            mixinStandardHelpOptions = true,
            description = "Launches a periodic job's child now, whatever its schedule.")
    public static final class Force implements Callable<Integer> {
        private final CliContext ctx;

        @Mixin
        private ClientOptions api;

        @Parameters(index = "0", paramLabel = "JOB", description = "The periodic job's ID.")
        private String job;

        Force(CliContext ctx) {
            this.ctx = ctx;
        }

        @Override
        public Integer call() {
            var r = api.client(ctx).post("/v1/job/" + URLEncoder.encode(job, StandardCharsets.UTF_8)
                    .replace("+", "%20") + "/periodic/force", "{}");
            ctx.out().println("Force periodic successful");
            ctx.out().println("Evaluation ID: " + r.path("EvalID").asText());
            return ExitCodes.OK;
        }
    }
}
