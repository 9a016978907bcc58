package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.ArrayList;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;
import picocli.CommandLine.Model.ArgSpec;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.ParseResult;

/**
 * The models built in code ({@link CodeModels}, {@link Specs}) are the annotated ones: the same usage text, the same
 * parse of every command line below (the values bound to the command's fields), the same error message for bad
 * ones. A difference in either form (a description edited in one, an option added to one) fails here.
 */
class ProgrammaticModelTest {
    private static final CliContext CTX = CliContext.of(System.out, System.err);

    static Stream<String> commands() {
        return Stream.of("alloc status", "alloc logs", "job status", "plugin status");
    }

    @ParameterizedTest
    @MethodSource("commands")
    void usageTextIsTheAnnotatedModels(String command) {
        String[] words = command.split(" ");
        assertThat(inCode(words).getUsageMessage()).isEqualTo(annotated(words).getUsageMessage());
        assertThat(inCode(words).getCommandSpec().qualifiedName()).isEqualTo("drover " + command);
    }

    @Test
    void rootUsageAndVersionAreTheAnnotatedModels() {
        CommandLine full = Main.model(CTX);
        CommandLine code = CodeModels.forArgs(new String[] {"--help"}, CTX, new ContextFactory(CTX));
        assertThat(code.getUsageMessage()).isEqualTo(full.getUsageMessage());
        assertThat(code.getCommandSpec().version()).isEqualTo(full.getCommandSpec().version());
        assertThat(code.getSubcommands().keySet()).containsExactlyElementsOf(full.getSubcommands().keySet());
    }

    static Stream<Arguments> commandLines() {
        return Stream.of(
                Arguments.of("alloc status", List.of("abc")),
                Arguments.of("alloc status", List.of("-json", "-verbose", "abc", "-address", "http://h:1")),
                Arguments.of("alloc status", List.of("--json", "--token=t", "--address=h:2", "abc")),
                Arguments.of("alloc status", List.of("-h")),
                Arguments.of("alloc status", List.of("-V")),
                Arguments.of("alloc status", List.of()),
                Arguments.of("alloc status", List.of("a", "b")),
                Arguments.of("alloc status", List.of("-nope", "a")),
                Arguments.of("alloc status", List.of("a", "-address")),
                Arguments.of("alloc logs", List.of("abc", "main")),
                Arguments.of("alloc logs", List.of("-f", "-stderr", "abc", "main", "-token", "x")),
                Arguments.of("alloc logs", List.of("abc")),
                Arguments.of("alloc logs", List.of("--f", "abc", "main", "extra")),
                Arguments.of("job status", List.of()),
                Arguments.of("job status", List.of("web", "-address", "h:3")),
                Arguments.of("job status", List.of("web", "other")),
                Arguments.of("job status", List.of("--help")),
                Arguments.of("plugin status", List.of()),
                Arguments.of("plugin status", List.of("-verbose", "-config", "agent.hcl")),
                Arguments.of("plugin status", List.of("--config=a.hcl", "--token", "t", "--verbose")),
                Arguments.of("plugin status", List.of("stray")));
    }

    @ParameterizedTest
    @MethodSource("commandLines")
    void parsesLikeTheAnnotatedModel(String command, List<String> rest) {
        String[] words = command.split(" ");
        List<String> args = new ArrayList<>(List.of(words));
        args.addAll(rest);
        assertThat(parse(inCode(words), args)).isEqualTo(parse(annotated(words), args));
    }

    /** What picocli made of {@code args}: each matched argument and the value bound, or the error message. */
    private static List<String> parse(CommandLine subcommand, List<String> args) {
        CommandLine root = subcommand.getParent().getParent();
        List<String> seen = new ArrayList<>();
        try {
            ParseResult r = root.parseArgs(args.toArray(String[]::new));
            while (r.hasSubcommand()) {
                r = r.subcommand();
            }
            seen.add("help " + r.isUsageHelpRequested() + " version " + r.isVersionHelpRequested());
            CommandSpec spec = r.commandSpec();
            for (ArgSpec a : spec.args()) {
                seen.add((a.isOption() ? ((CommandLine.Model.OptionSpec) a).longestName() : a.paramLabel()) + "="
                        + a.getValue() + (r.hasMatchedOption(a.isOption()
                                ? ((CommandLine.Model.OptionSpec) a).longestName() : "") ? " (matched)" : ""));
            }
            seen.add("unmatched " + r.unmatched());
        } catch (CommandLine.ParameterException e) {
            seen.add(e.getClass().getSimpleName() + ": " + e.getMessage());
        }
        return seen;
    }

    private static CommandLine inCode(String[] words) {
        CommandLine root = CodeModels.forArgs(words, CTX, new ContextFactory(CTX));
        assertThat(root).as("a model in code for " + String.join(" ", words)).isNotNull();
        return root.getSubcommands().get(words[0]).getSubcommands().get(words[1]);
    }

    private static CommandLine annotated(String[] words) {
        return Main.model(CTX).getSubcommands().get(words[0]).getSubcommands().get(words[1]);
    }
}
