package io.drover.core.artifact;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.MessageDigest;
import java.security.NoSuchAlgorithmException;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Map;

/** go-getter's {@code checksum = "type:hex"} (md5, sha1, sha256, sha512) of a downloaded file. Blocking. */
final class Checksum {
    private static final Map<String, String> ALGORITHMS =
            Map.of("md5", "MD5", "sha1", "SHA-1", "sha256", "SHA-256", "sha512", "SHA-512");

    private Checksum() {}

    static void verify(Path file, String spec, String shown) throws IOException, ArtifactException {
        int colon = spec.indexOf(':');
        String type = colon < 0 ? "" : spec.substring(0, colon).toLowerCase(Locale.ROOT);
        String algorithm = ALGORITHMS.get(type);
        if (algorithm == null) {
            throw new ArtifactException("unsupported checksum type \"" + type + "\" (md5, sha1, sha256, sha512)");
        }
        MessageDigest digest;
        try {
            digest = MessageDigest.getInstance(algorithm);
        } catch (NoSuchAlgorithmException e) {
            throw new ArtifactException("checksum " + type + " is not available in this JVM");
        }
        try (InputStream in = Files.newInputStream(file)) {
            byte[] buf = new byte[64 * 1024];
            int r;
            while ((r = in.read(buf)) >= 0) {
                digest.update(buf, 0, r);
            }
        }
        String actual = HexFormat.of().formatHex(digest.digest());
        String expected = spec.substring(colon + 1).toLowerCase(Locale.ROOT);
        if (!actual.equals(expected)) {
            throw new ArtifactException("checksums did not match for " + shown + ": expected " + type + ":" + expected
                    + ", got " + type + ":" + actual);
        }
    }
}
