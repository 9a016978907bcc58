package io.drover.cli.client;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import io.drover.cli.format.TerminalText;
import java.io.IOException;
import java.io.InputStream;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Mixin;
import picocli.CommandLine.Option;
import picocli.CommandLine.Parameters;

/**
 * {@code drover job dispatch [-meta K=V]... [-id-prefix-template T] [-verbose] JOB [PAYLOAD|-]}: Nomad's
 * {@code job dispatch}, {@code POST /v1/job/:id/dispatch}. PAYLOAD is a file, or {@code -} for standard input;
 * at most 16 KiB + 1 byte of it is read (the agent refuses more with Nomad's message). Prints Nomad's
 * {@code Dispatched Job ID = ...} and {@code Evaluation ID = ...} lines once the child's allocations are placed
 * and recorded (as {@code nomad job dispatch -detach}: no monitor).
 */
@Command(name = "dispatch",
        mixinStandardHelpOptions = true,
        description = "Dispatches a parameterized job: creates a child job with the given meta and payload.")
public final class JobDispatchCommand implements Callable<Integer> {
    /** Nomad's payload bound, plus one byte so that the agent can say the payload is too large. */
    private static final int READ_LIMIT = 16 * 1024 + 1;

    private final CliContext ctx;

    @Mixin
    private ClientOptions api;

    @Option(names = {"-meta", "--meta"}, paramLabel = "KEY=VALUE",
            description = "Meta of the dispatched job (repeatable); merged over the job's meta.")
    private List<String> meta = new ArrayList<>();

    @Option(names = {"-id-prefix-template", "--id-prefix-template"}, paramLabel = "PREFIX",
            description = "Put into the dispatched job's ID: JOB/dispatch-PREFIX-<time>-<random>.")
    private String idPrefix;

    @Option(names = {"-verbose", "--verbose"}, description = "Show the full evaluation ID.")
    private boolean verbose;

    @Parameters(index = "0", paramLabel = "JOB", description = "The parameterized job's ID.")
    private String job;

    @Parameters(index = "1", arity = "0..1", paramLabel = "PAYLOAD",
            description = "A file whose content is the payload, or - to read it from standard input.")
    private String payload;

    JobDispatchCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        ObjectNode body = com.fasterxml.jackson.databind.node.JsonNodeFactory.instance.objectNode();
        ObjectNode m = body.putObject("Meta");
        for (String kv : meta) {
            int eq = kv.indexOf('=');
            if (eq <= 0) {
                throw new UserException("Error parsing meta value: " + kv + " (expected KEY=VALUE)", ExitCodes.USAGE);
            }
            m.put(kv.substring(0, eq), kv.substring(eq + 1));
        }
        if (payload != null) {
            body.put("Payload", Base64.getEncoder().encodeToString(read(payload)));
        }
        if (idPrefix != null) {
            body.put("IdPrefixTemplate", idPrefix);
        }
        JsonNode r = api.client(ctx).post("/v1/job/" + URLEncoder.encode(job, StandardCharsets.UTF_8)
                .replace("+", "%20") + "/dispatch", body.toString());
        String eval = r.path("EvalID").asText();
        ctx.out().println("Dispatched Job ID = " + TerminalText.escape(r.path("DispatchedJobID").asText()));
        ctx.out().println("Evaluation ID     = " + (verbose || eval.length() <= 8 ? eval : eval.substring(0, 8)));
        return ExitCodes.OK;
    }

    private byte[] read(String source) {
        try (InputStream in = source.equals("-") ? System.in : Files.newInputStream(Path.of(source))) {
            return in.readNBytes(READ_LIMIT);
        } catch (IOException | java.nio.file.InvalidPathException e) {
            throw new UserException("Error reading input data: " + (source.equals("-") ? "stdin" : source) + ": "
                    + e.getMessage(), ExitCodes.USAGE);
        }
    }
}
