package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.io.PrintWriter;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;
import picocli.CommandLine;

/**
 * {@link RootUsage} prints what picocli prints for the root's usage and version ({@code MainTest} compares the
 * usage with the full model's through {@code Main.execute}); this compares each with picocli's own rendering of
 * the root built in code, the form that printed them before.
 */
class RootUsageTest {
    private static final CliContext CTX = CliContext.of(System.out, System.err);

    @Test
    void usageIsPicocliRenderingOfTheRoot() {
        CommandLine root = CodeModels.forArgs(new String[] {"--help"}, CTX, new ContextFactory(CTX));
        assertThat(RootUsage.TEXT).isEqualTo(root.getUsageMessage());
        assertThat(RootUsage.TEXT).isEqualTo(Main.model(CTX).getUsageMessage());
    }

    @Test
    void versionIsPicocliVersionHelp() {
        CommandLine root = CodeModels.forArgs(new String[] {"--version"}, CTX, new ContextFactory(CTX));
        ByteArrayOutputStream picocli = new ByteArrayOutputStream();
        try (PrintWriter w = new PrintWriter(picocli, true, StandardCharsets.UTF_8)) {
            root.printVersionHelp(w);
        }
        for (String flag : new String[] {"--version", "-V"}) {
            CliRun run = CliRun.of(flag);
            assertThat(run.exitCode()).isZero();
            assertThat(run.out()).isEqualTo(picocli.toString(StandardCharsets.UTF_8));
            assertThat(run.err()).isEmpty();
        }
    }

    @Test
    void leavesEveryOtherCommandLineToPicocli() {
        PrintStream none = new PrintStream(new ByteArrayOutputStream());
        CliContext ctx = CliContext.of(none, none);
        for (String[] args : new String[][] {{"--help", "x"}, {"-hV"}, {"help"}, {"run"}, {"--bogus"}, {"-h", "-V"}}) {
            assertThat(RootUsage.print(args, ctx)).as(String.join(" ", args)).isNull();
        }
    }
}
