package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The command line itself: help, version, usage errors. Needs no engine, parser or plugin. */
class MainTest {
    @Test
    void helpListsTheCommandsAndExitCodes() {
        CliRun run = CliRun.of("--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("run", "plugin", "Exit codes");
    }

    /**
     * picocli's closure lookup is off once Main is initialised: else its {@code Class.forName} of a Groovy class
     * opens every jar of the class path at each command (docs/performance.md, "Session 11").
     */
    @Test
    void picocliGroovyClosureLookupIsOff() {
        assertThat(CliRun.of("--version").exitCode()).isZero();

        assertThat(System.getProperty(Main.PICOCLI_CLOSURES)).isEqualTo("true");
    }

    /** The root's usage lists the commands without building their models: the text is the full model's. */
    @Test
    void rootUsageIsTheFullModelsUsage() {
        String full = Main.model(CliContext.of(System.out, System.err)).getUsageMessage();

        assertThat(CliRun.of("--help").out()).isEqualTo(full);
        assertThat(CliRun.of("-h").out()).isEqualTo(full);
        CliRun bare = CliRun.of();
        assertThat(bare.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(bare.err()).isEqualTo(full);
    }

    @Test
    void runHelpDescribesEveryFlag() {
        CliRun run = CliRun.of("run", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("-config", "--config", "-json", "-verbose", "JOB", "Exit codes");
    }

    @Test
    void pluginStatusHelpDescribesTheConfigFlag() {
        CliRun run = CliRun.of("plugin", "status", "--help");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).contains("-config");
    }

    @Test
    void versionNamesDrover() {
        CliRun run = CliRun.of("--version");

        assertThat(run.exitCode()).isZero();
        assertThat(run.out()).startsWith("Drover ");
    }

    @Test
    void anUnknownOptionIsOneErrorLineAndExitCodeTwo() {
        CliRun run = CliRun.of("run", "-bogus", "job.hcl");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines().toList()).singleElement().asString()
                .startsWith("Error: ").contains("-bogus").contains("drover run --help");
    }

    @Test
    void runWithoutJobsIsAUsageError() {
        CliRun run = CliRun.of("run");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.errorLines()).hasSize(1);
    }

    @Test
    void noCommandShowsTheUsageAndExitsTwo() {
        CliRun run = CliRun.of();

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err()).contains("Usage: drover");
    }

    @Test
    void aMissingConfigFileIsOneLineNamingItAndExitCodeTwo(@TempDir Path dir) {
        Path missing = dir.resolve("missing.hcl");

        CliRun run = CliRun.of("run", "-config", missing.toString(), "job.hcl");

        assertThat(run.exitCode()).isEqualTo(ExitCodes.USAGE);
        assertThat(run.err().lines().toList()).containsExactly("Error: " + missing + ": no such file");
    }

    @Test
    void theDoubleDashSpellingOfConfigIsAccepted(@TempDir Path dir) throws Exception {
        Path notAFile = Files.createDirectory(dir.resolve("conf.d"));

        CliRun run = CliRun.of("run", "--config", notAFile.toString(), "job.hcl");

        assertThat(run.err().lines().toList()).containsExactly("Error: " + notAFile + ": not a regular file");
    }

    @Test
    void errorLinesFoldMultiLineMessages() {
        assertThat(ErrorHandler.oneLine("first\n  second\n")).isEqualTo("first; second");
    }
}
