package io.drover.agent.http;

import java.io.IOException;
import java.io.InputStream;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.ConcurrentHashMap;
import java.util.regex.Pattern;

/**
 * The web UI (docs/ui.md): {@code GET /} redirects to {@code /ui/}; {@code GET /ui/assets/<name>} serves one
 * file of the agent JAR's {@code io/drover/agent/ui/} folder; every other {@code /ui/...} path answers the
 * page shell ({@code index.html}), whose script routes on the path, so deep links work. Assets are looked up
 * only by a plain name ({@value #NAME}: no slash, no dot-dot) on the class path, never on the file system, and
 * are cached once read. They carry no data (the data comes from {@code /v1/} with the token), so these routes
 * need no token: that is how the page can ask for one. Every answer carries a Content-Security-Policy that
 * allows only the agent's own scripts, styles, images and API ({@code default-src 'self'}, no inline script,
 * no framing). Server threads; thread-safe.
 */
final class UiHandler {
    static final String NAME = "[a-z][a-z0-9-]*\\.(js|css|svg|png|html)";
    private static final Pattern ASSET = Pattern.compile(NAME);
    private static final String ROOT = "/io/drover/agent/ui/";
    static final String CSP = "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
            + "connect-src 'self'; object-src 'none'; base-uri 'none'; form-action 'none'; frame-ancestors 'none'";

    private record Asset(String type, byte[] bytes) {}

    private final Map<String, Asset> cache = new ConcurrentHashMap<>();

    void addRoutes(Router router) {
        router.addPublic("GET", "/", this::root)
                .addPublic("GET", "/ui/*", this::page);
    }

    private void root(ApiRequest req) throws IOException {
        req.setHeader("Location", "/ui/");
        secure(req);
        req.respondBytes(302, "text/plain; charset=utf-8", "see /ui/\n".getBytes(java.nio.charset.StandardCharsets.UTF_8));
    }

    private void page(ApiRequest req) throws Exception {
        String rest = req.path("*");
        Asset a;
        if (rest.startsWith("assets/")) {
            String name = rest.substring("assets/".length());
            a = asset(name).orElseThrow(() -> ApiException.notFound("no UI asset " + name));
        } else {
            a = asset("index.html").orElseThrow(() -> new IllegalStateException("the UI is missing from the JAR"));
        }
        secure(req);
        req.setHeader("Cache-Control", "no-cache");
        req.respondBytes(200, a.type(), a.bytes());
    }

    private static void secure(ApiRequest req) {
        req.setHeader("Content-Security-Policy", CSP);
        req.setHeader("X-Content-Type-Options", "nosniff");
        req.setHeader("X-Frame-Options", "DENY");
        req.setHeader("Referrer-Policy", "no-referrer");
    }

    private Optional<Asset> asset(String name) throws IOException {
        if (!ASSET.matcher(name).matches()) {
            return Optional.empty();
        }
        Asset cached = cache.get(name);
        if (cached != null) {
            return Optional.of(cached);
        }
        try (InputStream in = UiHandler.class.getResourceAsStream(ROOT + name)) {
            if (in == null) {
                return Optional.empty();
            }
            Asset a = new Asset(type(name), in.readAllBytes());
            cache.put(name, a);
            return Optional.of(a);
        }
    }

    private static String type(String name) {
        String ext = name.substring(name.lastIndexOf('.') + 1);
        return switch (ext) {
            case "js" -> "text/javascript; charset=utf-8";
            case "css" -> "text/css; charset=utf-8";
            case "svg" -> "image/svg+xml";
            case "png" -> "image/png";
            default -> "text/html; charset=utf-8";
        };
    }
}
