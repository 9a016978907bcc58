package io.drover.cli;

import java.io.ByteArrayOutputStream;
import java.io.PrintStream;
import java.nio.charset.StandardCharsets;
import java.util.List;

/** One in-process run of the CLI with its exit code and captured output. */
public record CliRun(int exitCode, String out, String err) {

    public static CliRun of(String... args) {
        ByteArrayOutputStream out = new ByteArrayOutputStream();
        ByteArrayOutputStream err = new ByteArrayOutputStream();
        int code = Main.execute(args, new PrintStream(out, true, StandardCharsets.UTF_8),
                new PrintStream(err, true, StandardCharsets.UTF_8));
        return new CliRun(code, out.toString(StandardCharsets.UTF_8), err.toString(StandardCharsets.UTF_8));
    }

    public List<String> errorLines() {
        return err.lines().filter(l -> l.startsWith("Error: ")).toList();
    }

    /** No Java stack trace anywhere in the output. */
    public boolean hasNoStackTrace() {
        return !(out + err).contains("\tat ") && !(out + err).contains("Exception");
    }
}
