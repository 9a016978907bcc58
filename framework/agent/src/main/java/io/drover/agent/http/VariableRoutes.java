package io.drover.agent.http;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.core.vars.Variable;
import io.drover.core.vars.VariablePaths;
import io.drover.core.vars.VariableStore;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Nomad's variables API over the agent's {@link VariableStore}, in Nomad's JSON shape: {@code GET /v1/vars?prefix=}
 * (the metadata of each variable, no items), {@code GET /v1/var/:path} (404 when absent), {@code PUT /v1/var/:path}
 * (body: the variable, {@code Items} required; {@code ?cas=N} check-and-set, 409 with the current variable on a
 * conflict), {@code DELETE /v1/var/:path} ({@code ?cas=N}). {@code ?namespace=} selects the namespace
 * ({@code default} when absent; {@code *} lists every one). GETs are blocking queries like every read route (a
 * change takes a new agent index). Server threads; reads are in memory, writes block on the store's file.
 */
final class VariableRoutes {
    private final VariableStore store;

    VariableRoutes(VariableStore store) {
        this.store = store;
    }

    void addRoutes(Router router) {
        router.add("GET", "/v1/vars", this::list)
                .add("GET", "/v1/var/*", this::read)
                .add("PUT,POST", "/v1/var/*", this::write)
                .add("DELETE", "/v1/var/*", this::delete);
    }

    private static String namespace(ApiRequest r) {
        String ns = r.query("namespace");
        return ns == null || ns.isEmpty() ? "default" : ns;
    }

    private static String path(ApiRequest r) throws ApiException {
        String path = ApiRequest.decode(r.path("*"));
        List<String> problems = VariablePaths.problems(path);
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(String.join("; ", problems));
        }
        return path;
    }

    private static Long cas(ApiRequest r) throws ApiException {
        String raw = r.query("cas");
        if (raw == null || raw.isEmpty()) {
            return null;
        }
        try {
            long v = Long.parseLong(raw);
            if (v < 0) {
                throw new NumberFormatException();
            }
            return v;
        } catch (NumberFormatException e) {
            throw ApiException.badRequest("cas: \"" + raw + "\" is not an index (a whole number, 0 or more)");
        }
    }

    private void list(ApiRequest r) throws Exception {
        String prefix = r.query("prefix");
        List<Map<String, Object>> out = new ArrayList<>();
        for (Variable v : store.list(namespace(r), prefix == null ? "" : prefix)) {
            out.add(v.metadata());
        }
        r.respond(200, out);
    }

    private void read(ApiRequest r) throws Exception {
        String path = path(r);
        Variable v = store.get(namespace(r), path).orElseThrow(
                () -> ApiException.notFound("variable not found: " + path));
        r.respond(200, v);
    }

    private void write(ApiRequest r) throws Exception {
        String path = path(r);
        Long cas = cas(r);
        JsonNode body = Json.parse(r.body());
        List<String> problems = new ArrayList<>();
        if (!body.isObject()) {
            throw ApiException.badRequest("body: expected a variable (a JSON object with Items)");
        }
        String ns = namespace(r);
        JsonNode bodyNs = body.get("Namespace");
        if (bodyNs != null && !bodyNs.isNull() && !bodyNs.asText().isEmpty()) {
            if (!bodyNs.isTextual()) {
                problems.add("Namespace: expected a string");
            } else if (r.query("namespace") == null) {
                ns = bodyNs.asText();
            }
        }
        if (ns.equals("*")) {
            problems.add("Namespace: can not target wildcard (\"*\") namespace");
        }
        JsonNode bodyPath = body.get("Path");
        if (bodyPath != null && !bodyPath.isNull() && !bodyPath.asText().isEmpty()
                && !bodyPath.asText().equals(path)) {
            problems.add("Path: \"" + bodyPath.asText() + "\" differs from the URL's \"" + path + "\"");
        }
        Map<String, String> items = new LinkedHashMap<>();
        JsonNode itemsNode = body.get("Items");
        if (itemsNode == null || itemsNode.isNull()) {
            problems.add("Items: empty variables are invalid (a variable needs at least one item)");
        } else if (!itemsNode.isObject()) {
            problems.add("Items: expected an object of string values");
        } else {
            var fields = itemsNode.fields();
            while (fields.hasNext()) {
                var e = fields.next();
                if (!e.getValue().isTextual()) {
                    problems.add("Items." + e.getKey() + ": expected a string, found " + e.getValue().getNodeType()
                            .toString().toLowerCase(java.util.Locale.ROOT));
                } else {
                    items.put(e.getKey(), e.getValue().asText());
                }
            }
            if (problems.isEmpty()) {
                problems.addAll(VariablePaths.itemProblems(items));
            }
        }
        if (!problems.isEmpty()) {
            throw ApiException.badRequest(String.join("; ", problems));
        }
        VariableStore.Result res = store.put(ns, path, items, cas);
        respond(r, res);
    }

    private void delete(ApiRequest r) throws Exception {
        String path = path(r);
        Long cas = cas(r);
        String ns = namespace(r);
        respond(r, store.delete(ns, path, cas));
    }

    /** Nomad: the variable written (200), or on a cas conflict 409 with the current variable (empty when none). */
    private static void respond(ApiRequest r, VariableStore.Result res) throws Exception {
        if (res.applied()) {
            r.respond(200, res.variable() == null ? Map.of() : res.variable());
        } else {
            r.respond(409, res.variable() == null ? Map.of() : res.variable());
        }
    }
}
