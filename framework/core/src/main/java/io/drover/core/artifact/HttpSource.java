package io.drover.core.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.time.Duration;
import java.util.Map;

/**
 * An http(s) artifact: one GET with the artifact's headers, redirects followed (never https to http), status 200
 * only, the body copied within the byte budget and the deadline. Blocking on the calling (pool) thread;
 * interrupting it abandons the download.
 */
final class HttpSource {
    private final HttpClient client;

    HttpSource(HttpClient client) {
        this.client = client;
    }

    void download(URI uri, Map<String, String> headers, Path target, Bounded budget, Duration timeout, String shown)
            throws IOException, ArtifactException, InterruptedException {
        HttpRequest.Builder request = HttpRequest.newBuilder(uri).GET().timeout(timeout);
        for (Map.Entry<String, String> h : headers.entrySet()) {
            try {
                request.header(h.getKey(), h.getValue());
            } catch (IllegalArgumentException e) {
                throw new ArtifactException("artifact header \"" + h.getKey() + "\" cannot be set: " + e.getMessage());
            }
        }
        HttpResponse<InputStream> response;
        try {
            response = client.send(request.build(), HttpResponse.BodyHandlers.ofInputStream());
        } catch (java.net.http.HttpTimeoutException e) {
            throw new ArtifactException("GET " + shown + ": no answer within " + timeout.toSeconds() + "s");
        } catch (IOException e) {
            throw new ArtifactException("GET " + shown + ": " + (e.getMessage() == null ? e.toString()
                    : e.getMessage()));
        }
        try (InputStream in = response.body()) {
            if (response.statusCode() != 200) {
                throw new ArtifactException("GET " + shown + ": bad response code: " + response.statusCode());
            }
            try (OutputStream out = Files.newOutputStream(target, StandardOpenOption.CREATE_NEW,
                    StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS)) {
                budget.copy(in, out, "GET " + shown);
            }
        }
    }
}
