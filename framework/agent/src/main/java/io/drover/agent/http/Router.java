package io.drover.agent.http;

import java.util.ArrayList;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeSet;

/**
 * Maps {@code METHOD /v1/path/:param} routes to handlers. Built once at start-up, then read-only and
 * thread-safe. A path that matches a route under another method gives 405; no match at all gives 404. A pattern
 * ending in {@code /*} matches that prefix and any rest (bound, undecoded, as the {@code *} parameter). A route
 * added with {@link #addPublic} is served without the API token (the web UI's static assets, which carry no
 * data: docs/ui.md).
 */
public final class Router {
    /** Handles one matched request on a server thread; throws {@link ApiException} for a client error. */
    @FunctionalInterface
    public interface Handler {
        void handle(ApiRequest request) throws Exception;
    }

    private record Route(Set<String> methods, String[] segments, Handler handler, boolean open) {}

    /** A matched route: its handler and decoded path parameters. */
    record Match(Handler handler, Map<String, String> params) {}

    private final List<Route> routes = new ArrayList<>();

    /** @param methods comma-separated, e.g. {@code "PUT,POST"} */
    public Router add(String methods, String pattern, Handler handler) {
        routes.add(new Route(Set.of(methods.split(",")), split(pattern), handler, false));
        return this;
    }

    /** As {@link #add}, for a route that needs no API token: it must serve nothing but static, data-free bytes. */
    public Router addPublic(String methods, String pattern, Handler handler) {
        routes.add(new Route(Set.of(methods.split(",")), split(pattern), handler, true));
        return this;
    }

    /** Whether {@code method rawPath} is answered by a route added with {@link #addPublic}. */
    boolean isPublic(String method, String rawPath) {
        String[] parts = split(rawPath);
        for (Route r : routes) {
            if (bind(r.segments, parts) != null) {
                return r.open && r.methods.contains(method);
            }
        }
        return false;
    }

    Match match(String method, String rawPath) throws ApiException {
        String[] parts = split(rawPath);
        Set<String> allowed = new TreeSet<>();
        for (Route r : routes) {
            Map<String, String> params = bind(r.segments, parts);
            if (params == null) {
                continue;
            }
            if (r.methods.contains(method)) {
                return new Match(r.handler, params);
            }
            allowed.addAll(r.methods);
        }
        if (!allowed.isEmpty()) {
            throw new ApiException(405, "method " + method + " not allowed on " + rawPath + "; allowed: "
                    + String.join(", ", allowed));
        }
        throw ApiException.notFound("no route " + rawPath);
    }

    private static Map<String, String> bind(String[] pattern, String[] parts) {
        boolean tail = pattern.length > 0 && pattern[pattern.length - 1].equals("*");
        int fixed = tail ? pattern.length - 1 : pattern.length;
        if (tail ? parts.length < fixed : pattern.length != parts.length) {
            return null;
        }
        Map<String, String> params = new HashMap<>();
        if (tail) {
            params.put("*", String.join("/", java.util.Arrays.asList(parts).subList(fixed, parts.length)));
        }
        for (int i = 0; i < fixed; i++) {
            if (pattern[i].startsWith(":")) {
                String value = ApiRequest.decode(parts[i]);
                if (value.isEmpty()) {
                    return null;
                }
                params.put(pattern[i].substring(1), value);
            } else if (!pattern[i].equals(parts[i])) {
                return null;
            }
        }
        return params;
    }

    /** Splits on {@code /}, ignoring one leading and one trailing slash (Nomad accepts {@code /v1/jobs/}). */
    private static String[] split(String path) {
        String p = path.startsWith("/") ? path.substring(1) : path;
        if (p.endsWith("/")) {
            p = p.substring(0, p.length() - 1);
        }
        return p.isEmpty() ? new String[0] : p.split("/", -1);
    }
}
