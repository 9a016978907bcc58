package io.drover.cli;

import io.drover.cli.format.TerminalText;
import io.drover.core.spec.parse.InputFileException;
import io.drover.core.spec.parse.JobFileException;
import picocli.CommandLine;
import picocli.CommandLine.IExecutionExceptionHandler;
import picocli.CommandLine.IParameterExceptionHandler;
import picocli.CommandLine.ParameterException;
import picocli.CommandLine.ParseResult;

/**
 * Turns every failure into one line {@code Error: <message>} on stderr and an exit code: 2 for bad input
 * (usage, job files, configs), the {@link UserException}'s own code, 1 for anything unexpected. A job file with
 * several problems, and bad input the agent refused with several (one per line of its {@code error}), get one
 * {@code Error:} line per problem. A stack trace is printed only when {@code DROVER_DEBUG=1}.
 */
final class ErrorHandler implements IExecutionExceptionHandler, IParameterExceptionHandler {
    private final CliContext ctx;

    ErrorHandler(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public int handleExecutionException(Exception thrown, CommandLine cmd, ParseResult parseResult) {
        Throwable e = unwrap(thrown);
        if (e instanceof UserException u) {
            if (u.exitCode() == ExitCodes.USAGE && u.getMessage() != null && u.getMessage().strip().contains("\n")) {
                return report(u.getMessage().strip().lines().toList(), u, u.exitCode());
            }
            return report(u.getMessage(), u, u.exitCode());
        }
        if (e instanceof JobFileException f) {
            return report(f.problems().stream().map(Exception::getMessage).toList(), f, ExitCodes.USAGE);
        }
        if (e instanceof InputFileException f) {
            return report(f.getMessage(), f, ExitCodes.USAGE);
        }
        String message = e.getMessage() == null || e.getMessage().isBlank() ? e.toString() : e.getMessage();
        return report(message + hint(), e, ExitCodes.FAILED);
    }

    @Override
    public int handleParseException(ParameterException e, String[] args) {
        String help = e.getCommandLine().getCommandSpec().qualifiedName() + " --help";
        return report(e.getMessage() + " (see '" + help + "')", e, ExitCodes.USAGE);
    }

    /** The cause of a failed future's wrapper: that is what the user needs to read. */
    private static Throwable unwrap(Throwable e) {
        Throwable t = e;
        while ((t instanceof java.util.concurrent.CompletionException
                || t instanceof java.util.concurrent.ExecutionException) && t.getCause() != null) {
            t = t.getCause();
        }
        return t;
    }

    private String hint() {
        return ctx.debug() ? "" : " (DROVER_DEBUG=1 shows the stack trace)";
    }

    private int report(String message, Throwable e, int exitCode) {
        return report(java.util.List.of(message == null ? "" : message), e, exitCode);
    }

    /** One {@code Error:} line per message (each kept on one line). */
    private int report(java.util.List<String> messages, Throwable e, int exitCode) {
        messages.forEach(m -> ctx.err().println("Error: " + oneLine(m)));
        if (ctx.debug()) {
            e.printStackTrace(ctx.err());
        }
        ctx.err().flush();
        return exitCode;
    }

    /**
     * The message on one line: line breaks become {@code ; }, any other control character is escaped (a message
     * may quote a job file's key or value, a task's or a driver's text: {@link TerminalText}).
     */
    static String oneLine(String message) {
        return message == null ? ""
                : TerminalText.escape(message.strip().replaceAll("\\s*[\\r\\n]+\\s*", "; "));
    }
}
