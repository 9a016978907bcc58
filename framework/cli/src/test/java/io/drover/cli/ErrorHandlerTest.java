package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.time.ZoneOffset;
import java.util.Map;
import java.util.concurrent.CompletionException;
import org.junit.jupiter.api.Test;

class ErrorHandlerTest {
    private final ByteArrayOutputStream err = new ByteArrayOutputStream();

    private ErrorHandler handler(Map<String, String> env) {
        PrintStream stream = new PrintStream(err, true, StandardCharsets.UTF_8);
        return new ErrorHandler(new CliContext(stream, stream, false, env, ZoneOffset.UTC));
    }

    @Test
    void anUnexpectedErrorIsOneLineWithoutTraceAndExitCodeOne() {
        int code = handler(Map.of()).handleExecutionException(
                new CompletionException(new IllegalStateException("engine broke")), null, null);

        assertThat(code).isEqualTo(ExitCodes.FAILED);
        assertThat(err.toString(StandardCharsets.UTF_8).lines().toList())
                .containsExactly("Error: engine broke (DROVER_DEBUG=1 shows the stack trace)");
    }

    @Test
    void droverDebugAddsTheStackTrace() {
        handler(Map.of("DROVER_DEBUG", "1")).handleExecutionException(new IllegalStateException("x"), null, null);

        assertThat(err.toString(StandardCharsets.UTF_8)).startsWith("Error: x\n").contains("\tat ");
    }

    @Test
    void aUserErrorKeepsItsExitCode() {
        int code = handler(Map.of()).handleExecutionException(UserException.badInput("bad"), null, null);

        assertThat(code).isEqualTo(ExitCodes.USAGE);
        assertThat(err.toString(StandardCharsets.UTF_8)).isEqualTo("Error: bad\n");
    }
}
