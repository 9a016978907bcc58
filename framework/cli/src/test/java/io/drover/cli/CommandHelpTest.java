package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/** Every command, option and parameter of the command line has a description for {@code --help}. */
class CommandHelpTest {
    @Test
    void everyFlagAndParameterIsDescribed() {
        List<String> undescribed = new ArrayList<>();
        walk(new CommandLine(new Main(), new ContextFactory(CliContext.of(System.out, System.err)))
                .getCommandSpec(), undescribed);
        assertThat(undescribed).isEmpty();
    }

    @Test
    void helpListsTheAgentAndClientCommands() {
        CliRun run = CliRun.of("--help");
        assertThat(run.out()).contains("agent", "job", "alloc", "system", "plugin", "DROVER_ADDR");
    }

    private static void walk(CommandSpec spec, List<String> undescribed) {
        if (spec.usageMessage().description().length == 0 && !spec.name().equals("help")) {
            undescribed.add(spec.qualifiedName());
        }
        for (OptionSpec o : spec.options()) {
            if (o.description().length == 0 || o.description()[0].isBlank()) {
                undescribed.add(spec.qualifiedName() + " " + o.longestName());
            }
        }
        for (PositionalParamSpec p : spec.positionalParameters()) {
            if (p.description().length == 0 || p.description()[0].isBlank()) {
                undescribed.add(spec.qualifiedName() + " " + p.paramLabel());
            }
        }
        spec.subcommands().values().forEach(c -> walk(c.getCommandSpec(), undescribed));
    }
}
