package io.drover.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import java.nio.charset.StandardCharsets;

/**
 * The HCL form of a register request: {@code {"JobHCL": "<text>"}}, parsed as a jobspec with its variables'
 * defaults and no filesystem functions (the agent must not read its own files for a request), or, with
 * {@code "Evaluated": true}, the literal text {@code drover job run} evaluated on the user's machine (with
 * the user's {@code -var}, {@code -var-file} and files), read without evaluating it again. {@code "JobFile"},
 * when given, names the user's file in the messages (its last path component only; default
 * {@code request.hcl}): the evaluated text keeps the file's lines, so a message points into the user's file.
 */
final class JobHclRequest {
    static final String DEFAULT_NAME = "request.hcl";
    private static final int MAX_NAME = 200;

    private JobHclRequest() {}

    static Job parse(JsonNode request) throws JobFileException {
        byte[] text = request.path("JobHCL").asText().getBytes(StandardCharsets.UTF_8);
        String name = name(request.path("JobFile").asText(""));
        return request.path("Evaluated").asBoolean(false) ? JobFileParser.parseEvaluated(name, text)
                : JobFileParser.parse(name, text);
    }

    /** The last path component of a client-given name, without control characters; the default when empty. */
    static String name(String given) {
        String last = given.substring(given.lastIndexOf('/') + 1).replaceAll("\\p{Cntrl}", "");
        if (last.isBlank() || last.equals(".") || last.equals("..")
                || last.toLowerCase(java.util.Locale.ROOT).endsWith(".json")) { // .json would pick the JSON syntax
            return DEFAULT_NAME;
        }
        return last.length() > MAX_NAME ? last.substring(0, MAX_NAME) : last;
    }
}
