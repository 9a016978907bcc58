package io.drover.core.artifact;

import java.util.Locale;
import java.util.Optional;

/**
 * The go-getter sources Nomad's {@code job validate} accepts but that Drover's artifact getter does not fetch:
 * cloud stores ({@code s3::}, {@code gcs::}, their hosts), Mercurial ({@code hg::}) and remote git (a
 * {@code git::} URL, {@code git@host:...}, go-getter's {@code github.com/...}, {@code gitlab.com/...},
 * {@code bitbucket.org/...} shorthands). A job with one validates and is placed, as in Nomad; at run time the
 * fetch fails at once with one line naming what it would need ({@link #missing}), recorded as
 * {@code Failed Artifact Download}. Pure.
 */
public final class RemoteSources {
    private RemoteSources() {}

    /** What fetching {@code source} would need that this node's getter does not have; empty when it can fetch it. */
    public static Optional<String> missing(String source) {
        String s = source.toLowerCase(Locale.ROOT);
        if (s.startsWith("s3::") || s.contains(".amazonaws.com")) {
            return Optional.of(cloud(source, "an Amazon S3 account (go-getter's s3 getter)"));
        }
        if (s.startsWith("gcs::") || s.contains("storage.googleapis.com")) {
            return Optional.of(cloud(source, "a Google Cloud Storage account (go-getter's gcs getter)"));
        }
        if (s.startsWith("hg::")) {
            return Optional.of("artifact " + source + ": needs Mercurial (go-getter's hg getter), which Drover's"
                    + " artifact getter does not have (supported: local paths, file://, http(s)://, git:: over a"
                    + " local path)");
        }
        boolean remoteGit = s.startsWith("git::") && s.contains("://") && !s.startsWith("git::file://");
        boolean shorthand = s.startsWith("github.com/") || s.startsWith("gitlab.com/")
                || s.startsWith("bitbucket.org/") || s.startsWith("git@") || s.startsWith("git::git@")
                || s.startsWith("git::ssh") || s.startsWith("ssh://");
        if (remoteGit || shorthand) {
            return Optional.of("artifact " + source + ": needs a clone of a remote git repository over the network,"
                    + " which Drover's artifact getter does not make (git:: clones a local repository; or fetch an"
                    + " archive over http(s)://)");
        }
        return Optional.empty();
    }

    private static String cloud(String source, String what) {
        return "artifact " + source + ": needs " + what + ", which one Drover node does not have (supported: local"
                + " paths, file://, http(s)://, git:: over a local path)";
    }
}
