package io.drover.core.artifact;

import io.drover.core.spec.Artifact;
import io.drover.core.spec.ArtifactMode;
import java.io.IOException;
import java.net.URI;
import java.net.URISyntaxException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardCopyOption;
import java.time.Duration;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.Optional;

/**
 * Fetches one artifact into a task's directory, as go-getter does for Nomad, for the sources that need no cloud
 * account: local paths and {@code file://} (world-readable only, {@link LocalSource}), {@code http(s)://}
 * ({@link HttpSource}) and {@code git::} over a local repository ({@link GitSource}). An archive (by name, or
 * forced by {@code archive = "tar.gz"}) is unpacked unless {@code archive = "false"}; {@code checksum} is checked
 * on the downloaded file before anything is placed. The destination lands where {@link ClientPath} says (the
 * task directory or the shared alloc directory) and nothing is written through a link ({@link SafeFiles},
 * {@link Unpacker}).
 *
 * <p>Thread-safe; {@link #fetch} blocks (network, disk, a git process) and must run on a bounded pool, never on an
 * engine thread. Interrupting it abandons the fetch.
 */
public final class ArtifactGetter {
    private final FetchLimits limits;
    private final HttpSource http;

    public ArtifactGetter(FetchLimits limits, HttpClient client) {
        this.limits = limits;
        this.http = new HttpSource(client);
    }

    /** An HTTP client for artifacts: redirects followed (not https to http), a 30 s connect timeout. */
    public static HttpClient httpClient(java.util.concurrent.Executor executor) {
        return HttpClient.newBuilder().followRedirects(HttpClient.Redirect.NORMAL)
                .connectTimeout(Duration.ofSeconds(30)).executor(executor).build();
    }

    /**
     * @param source the artifact's source with {@code ${...}} already interpolated
     * @param taskDir the task's directory (the destination is relative to it)
     */
    public void fetch(Artifact artifact, String source, Path taskDir) throws ArtifactException, InterruptedException {
        fetch(artifact, source, taskDir, new ClientPath.Target(taskDir.normalize(), artifact.destination()));
    }

    /**
     * @param source the artifact's source with {@code ${...}} already interpolated
     * @param taskDir the task's directory (a relative local source is relative to it; the scratch space is in it)
     * @param to where the destination lands ({@link ClientPath}): everything is written below its root, checked
     *     again there, no link followed
     */
    public void fetch(Artifact artifact, String source, Path taskDir, ClientPath.Target to)
            throws ArtifactException, InterruptedException {
        Path base = taskDir.normalize();
        Path root = to.root().normalize();
        Instant deadline = Instant.now().plus(limits.timeout());
        Bounded budget = new Bounded(limits.maxBytes(), deadline);
        Path scratch = null;
        try {
            Path dest = SafeFiles.inside(root, to.relative(), "artifact destination");
            SafeFiles.mkdirs(root, root);
            scratch = Files.createTempDirectory(base, ".artifact-");
            Map<String, String> options = new LinkedHashMap<>(artifact.options());
            fetchInto(artifact, source, options, new Roots(root, base), dest, scratch, budget);
        } catch (IOException e) {
            throw new ArtifactException("artifact " + source + ": " + (e.getMessage() == null ? e.toString()
                    : e.getClass().getSimpleName() + ": " + e.getMessage()));
        } finally {
            if (scratch != null) {
                deleteQuietly(scratch);
            }
        }
    }

    /** Where an artifact is written ({@code root}) and what a relative local source is relative to. */
    private record Roots(Path root, Path taskDir) {}

    private void fetchInto(Artifact artifact, String source, Map<String, String> options, Roots roots, Path dest,
            Path scratch, Bounded budget) throws IOException, ArtifactException, InterruptedException {
        Path root = roots.root();
        String shown = source;
        Optional<String> remote = RemoteSources.missing(source);
        if (remote.isPresent()) { // Nomad validates these; here the fetch fails at once, naming what it needs
            throw new ArtifactException(remote.get());
        }
        if (source.startsWith("git::")) {
            Path repo = LocalSource.check(localPath(source.substring(5), roots.taskDir()), shown);
            GitSource.cloneInto(repo, options, dest, root, scratch, limits.timeout(), shown);
            return;
        }
        Path downloaded;
        String fileName;
        String lower = source.toLowerCase(Locale.ROOT);
        if (lower.startsWith("http://") || lower.startsWith("https://")) {
            URI uri = uri(source, options);
            fileName = fileName(uri.getPath());
            downloaded = scratch.resolve("download");
            http.download(uri, artifact.headers(), downloaded, budget, limits.timeout(), shown);
        } else {
            Path real = LocalSource.check(localPath(source, roots.taskDir()), shown);
            fileName = real.getFileName() == null ? "artifact" : real.getFileName().toString();
            if (Files.isDirectory(real, LinkOption.NOFOLLOW_LINKS)) {
                if (artifact.mode() == ArtifactMode.FILE) {
                    throw new ArtifactException("artifact " + shown + " is a directory but mode is \"file\"");
                }
                if (options.containsKey("checksum")) {
                    throw new ArtifactException("artifact " + shown + " is a directory: a checksum needs a file");
                }
                LocalSource.copyTree(real, dest, root, budget, shown);
                return;
            }
            downloaded = scratch.resolve("download");
            LocalSource.copyFile(real, downloaded, budget, shown);
        }
        String checksum = options.get("checksum");
        if (checksum != null) {
            Checksum.verify(downloaded, checksum, shown);
        }
        Optional<ArchiveType> archive = archiveType(options.get("archive"), fileName);
        if (artifact.mode() == ArtifactMode.FILE) {
            place(downloaded, dest, root);
        } else if (archive.isPresent()) {
            new Unpacker(limits, budget, root).unpack(downloaded, archive.get(), dest, fileName);
        } else if (artifact.mode() == ArtifactMode.DIR) {
            throw new ArtifactException("artifact " + shown + " is not an archive but mode is \"dir\"");
        } else {
            SafeFiles.mkdirs(root, dest);
            place(downloaded, SafeFiles.inside(dest, fileName, "artifact file name"), root);
        }
    }

    /** The archive to unpack: forced by the option, none with {@code archive = "false"}, else by the file name. */
    static Optional<ArchiveType> archiveType(String option, String fileName) throws ArtifactException {
        if (option == null || option.equals("true")) {
            return ArchiveType.of(fileName);
        }
        if (option.equals("false")) {
            return Optional.empty();
        }
        return Optional.of(ArchiveType.forced(option)
                .orElseThrow(() -> new ArtifactException("unknown archive type \"" + option + "\"")));
    }

    /** Moves the fetched file to {@code target} (its parent created, a link or file there replaced, not followed). */
    private static void place(Path file, Path target, Path root) throws IOException, ArtifactException {
        if (target.equals(root)) {
            throw new ArtifactException("artifact destination is the task directory itself; name a file");
        }
        SafeFiles.mkdirs(root, target.getParent());
        SafeFiles.clearFile(root, target);
        Files.move(file, target, StandardCopyOption.REPLACE_EXISTING);
    }

    /** A local source: {@code file://}, an absolute path, or a path relative to the task directory (go-getter's). */
    private static Path localPath(String source, Path root) throws ArtifactException {
        String s = source;
        if (s.startsWith("file://")) {
            try {
                return Path.of(new URI(s));
            } catch (URISyntaxException | IllegalArgumentException e) {
                throw new ArtifactException("artifact source " + source + " is not a valid file URL");
            }
        }
        if (s.contains("://") || s.contains("::")) {
            throw new ArtifactException("artifact source " + source + ": unsupported scheme (local paths, file://, "
                    + "http(s)://, git:: over a local path)");
        }
        if (s.startsWith("/")) {
            return Path.of(s);
        }
        return SafeFiles.inside(root, s, "artifact source");
    }

    /** The URL without go-getter's own query parameters, which become options ({@code ?archive=false}). */
    private static URI uri(String source, Map<String, String> options) throws ArtifactException {
        URI uri;
        try {
            uri = new URI(source);
        } catch (URISyntaxException e) {
            throw new ArtifactException("artifact source " + source + " is not a valid URL: " + e.getReason());
        }
        String query = uri.getRawQuery();
        if (query == null) {
            return uri;
        }
        StringBuilder kept = new StringBuilder();
        for (String pair : query.split("&")) {
            int eq = pair.indexOf('=');
            String key = eq < 0 ? pair : pair.substring(0, eq);
            if (key.equals("archive") || key.equals("checksum")) {
                options.putIfAbsent(key, java.net.URLDecoder.decode(eq < 0 ? "" : pair.substring(eq + 1),
                        java.nio.charset.StandardCharsets.UTF_8));
            } else {
                kept.append(kept.length() == 0 ? "" : "&").append(pair);
            }
        }
        try {
            return new URI(uri.getScheme(), uri.getRawAuthority() == null ? null : uri.getAuthority(), uri.getPath(),
                    kept.length() == 0 ? null : kept.toString(), uri.getFragment());
        } catch (URISyntaxException e) {
            throw new ArtifactException("artifact source " + source + " is not a valid URL: " + e.getReason());
        }
    }

    private static String fileName(String path) {
        if (path == null || path.isEmpty() || path.endsWith("/")) {
            return "index.html";
        }
        String name = path.substring(path.lastIndexOf('/') + 1);
        return name.isEmpty() || name.equals("..") || name.equals(".") ? "artifact" : name;
    }

    private static void deleteQuietly(Path dir) {
        try (var walk = Files.walk(dir)) {
            walk.sorted(java.util.Comparator.reverseOrder()).forEach(p -> {
                try {
                    Files.deleteIfExists(p);
                } catch (IOException e) {
                    // left for the allocation's GC
                }
            });
        } catch (IOException e) {
            // left for the allocation's GC
        }
    }
}
