package io.drover.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.io.IOException;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.OptionalLong;
import java.util.Set;

/**
 * The fields of Nomad's {@code JobRegisterRequest} besides {@code Job}, as Nomad's Go {@code api} client sends them
 * ({@code Jobs().Register}/{@code RegisterOpts}): {@code EnforceIndex} with {@code JobModifyIndex} (check-and-set,
 * applied), {@code Region} and {@code Namespace} (this agent is region {@code global}, namespace {@code default}:
 * another one is refused), and {@code SecretID}, {@code Submission}, {@code PolicyOverride}, {@code PreserveCounts},
 * {@code PreserveResources}, {@code EvalPriority}, {@code IdempotencyToken} (accepted; one node has no policy,
 * counts to keep or evaluation queue, and the token travels in {@code X-Nomad-Token}). Any other key is refused,
 * naming it. Pure.
 */
record RegisterRequest(ObjectNode tree, OptionalLong enforceIndex, boolean hasOptions) {
    private static final Set<String> ACCEPTED = Set.of("SecretID", "Submission", "PolicyOverride", "PreserveCounts",
            "PreserveResources", "EvalPriority", "IdempotencyToken", "AuthToken");
    private static final List<String> KNOWN = List.of("Job", "JobHCL", "Evaluated", "JobFile", "Region", "Namespace",
            "SecretID", "Submission", "EnforceIndex", "JobModifyIndex", "PolicyOverride", "PreserveCounts", "PreserveResources", "EvalPriority",
            "IdempotencyToken", "AuthToken");

    static RegisterRequest of(JsonNode body) throws ApiException {
        ObjectNode tree = (ObjectNode) body;
        boolean options = false;
        boolean enforce = false;
        long index = 0;
        for (Iterator<Map.Entry<String, JsonNode>> it = tree.fields(); it.hasNext(); ) {
            Map.Entry<String, JsonNode> f = it.next();
            String k = f.getKey();
            JsonNode v = f.getValue();
            switch (k) {
                case "Job", "JobHCL", "Evaluated", "JobFile" -> { } // the last two: drover job run's HCL, evaluated
                case "Region" -> {
                    options = true;
                    requireOne(k, v, "global");
                }
                case "Namespace" -> {
                    options = true;
                    requireOne(k, v, "default");
                }
                case "EnforceIndex" -> {
                    options = true;
                    if (!v.isNull() && !v.isBoolean()) {
                        throw ApiException.badRequest("register request > EnforceIndex: must be true or false, found "
                                + v.getNodeType().toString().toLowerCase(java.util.Locale.ROOT));
                    }
                    enforce = v.asBoolean(false);
                }
                case "JobModifyIndex" -> {
                    options = true;
                    if (!v.isNull() && !(v.canConvertToLong() && v.asLong() >= 0)) {
                        throw ApiException.badRequest("register request > JobModifyIndex: must be an unsigned "
                                + "integer, found " + v);
                    }
                    index = v.asLong(0);
                }
                default -> {
                    if (!ACCEPTED.contains(k)) {
                        throw ApiException.badRequest("register request > " + k + ": unknown key (allowed: "
                                + String.join(", ", KNOWN) + ")");
                    }
                    options = true;
                }
            }
        }
        return new RegisterRequest(tree, enforce ? OptionalLong.of(index) : OptionalLong.empty(), options);
    }

    private static void requireOne(String key, JsonNode v, String only) throws ApiException {
        if (v.isNull() || v.isTextual() && (v.asText().isEmpty() || v.asText().equals(only))) {
            return;
        }
        throw ApiException.badRequest("register request > " + key + ": this agent has only \"" + only + "\", not "
                + v);
    }

    /** {@code {"Job": ...}} alone, for the job file parser (pretty-printed, so its lines stay apart). */
    byte[] jobOnly() throws IOException {
        ObjectNode only = Json.MAPPER.createObjectNode();
        only.set("Job", tree.get("Job"));
        return Json.MAPPER.writerWithDefaultPrettyPrinter().writeValueAsBytes(only);
    }
}
