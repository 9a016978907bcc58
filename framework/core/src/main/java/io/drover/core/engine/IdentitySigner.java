package io.drover.core.engine;

import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.GeneralSecurityException;
import java.security.KeyFactory;
import java.security.KeyPairGenerator;
import java.security.MessageDigest;
import java.security.PrivateKey;
import java.security.Signature;
import java.security.spec.PKCS8EncodedKeySpec;
import java.time.Duration;
import java.time.Instant;
import java.util.Base64;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;

/**
 * Signs workload identities (Nomad's {@code identity} blocks) as JWTs with this node's own Ed25519 key
 * ({@code alg = EdDSA}), the claims Nomad's client puts in them ({@code nomad_namespace}, {@code nomad_job_id},
 * {@code nomad_allocation_id}, {@code nomad_task}, {@code sub}, {@code aud}, {@code iat}, {@code nbf},
 * {@code exp} when the identity has a {@code ttl}). The key is made once per data dir and kept in
 * {@code <data_dir>/identity/ed25519.pk8} and {@code ed25519.pub} (0600, in a 0700 directory, never through a link), so tokens stay
 * verifiable across agent restarts. One node has no Nomad server to verify them: they prove to a service that
 * trusts this node's key which allocation and task speaks. Thread-safe; {@link #of} reads or writes the key file
 * (blocking, once per data dir), {@link #sign} is CPU only (tens of microseconds).
 */
final class IdentitySigner {
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final Map<Path, IdentitySigner> BY_DATA_DIR = new ConcurrentHashMap<>();
    private static final Base64.Encoder B64 = Base64.getUrlEncoder().withoutPadding();

    private final PrivateKey key;
    private final java.security.PublicKey publicKey;
    private final String keyId;

    private IdentitySigner(PrivateKey key, java.security.PublicKey publicKey, String keyId) {
        this.key = key;
        this.publicKey = publicKey;
        this.keyId = keyId;
    }

    /** What one token says of its workload. */
    record Claims(String region, String namespace, String jobId, String group, String allocId, String task,
            String identity, List<String> audience, Instant now, Duration ttl) {}

    /** The signer of the node whose data dir is {@code dataDir}, its key made on first use. */
    static IdentitySigner of(Path dataDir) {
        return BY_DATA_DIR.computeIfAbsent(dataDir.toAbsolutePath().normalize(), IdentitySigner::load);
    }

    private static IdentitySigner load(Path dataDir) {
        Path dir = dataDir.resolve("identity");
        Path file = dir.resolve("ed25519.pk8");
        try {
            if (!Files.isDirectory(dir, LinkOption.NOFOLLOW_LINKS)) {
                Files.createDirectories(dir, PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            }
            Path pub = dir.resolve("ed25519.pub");
            if (!Files.exists(file, LinkOption.NOFOLLOW_LINKS)) {
                java.security.KeyPair pair = KeyPairGenerator.getInstance("Ed25519").generateKeyPair();
                write(dir, pub, pair.getPublic().getEncoded());
                write(dir, file, pair.getPrivate().getEncoded()); // last: its presence means both are there
            }
            byte[] der = read(file);
            byte[] pubDer = read(pub);
            KeyFactory kf = KeyFactory.getInstance("Ed25519");
            PrivateKey key = kf.generatePrivate(new PKCS8EncodedKeySpec(der));
            java.security.PublicKey publicKey = kf.generatePublic(new java.security.spec.X509EncodedKeySpec(pubDer));
            String kid = HexFormat.of().formatHex(MessageDigest.getInstance("SHA-256").digest(pubDer), 0, 8);
            return new IdentitySigner(key, publicKey, kid);
        } catch (IOException e) {
            throw new UncheckedIOException("cannot read or make the identity key " + file + ": " + e.getMessage(), e);
        } catch (GeneralSecurityException e) {
            throw new IllegalStateException("the identity key " + file + " is not an Ed25519 key: " + e.getMessage(), e);
        }
    }

    private static byte[] read(Path file) throws IOException {
        if (!Files.isRegularFile(file, LinkOption.NOFOLLOW_LINKS)) {
            throw new IOException(file + " is not a regular file");
        }
        return Files.readAllBytes(file);
    }

    /** Writes {@code bytes} to {@code file} (0600) through a fresh temporary file and an atomic rename. */
    private static void write(Path dir, Path file, byte[] bytes) throws IOException {
        Path tmp = dir.resolve(file.getFileName() + ".tmp");
        Files.deleteIfExists(tmp);
        Files.write(tmp, bytes, StandardOpenOption.CREATE_NEW, StandardOpenOption.WRITE);
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rw-------"));
        Files.move(tmp, file, java.nio.file.StandardCopyOption.ATOMIC_MOVE, java.nio.file.StandardCopyOption.REPLACE_EXISTING);
    }

    /** The key's id, the JWT header's {@code kid}. */
    String keyId() {
        return keyId;
    }

    /** A signed JWT (compact serialization) for {@code c}. */
    String sign(Claims c) {
        Map<String, Object> header = new LinkedHashMap<>();
        header.put("alg", "EdDSA");
        header.put("kid", keyId);
        header.put("typ", "JWT");
        long now = c.now().getEpochSecond();
        Map<String, Object> claims = new LinkedHashMap<>();
        claims.put("aud", c.audience());
        claims.put("iat", now);
        claims.put("nbf", now);
        if (c.ttl() != null && !c.ttl().isZero()) {
            claims.put("exp", now + Math.max(1, c.ttl().toSeconds()));
        }
        claims.put("nomad_allocation_id", c.allocId());
        claims.put("nomad_job_id", c.jobId());
        claims.put("nomad_namespace", c.namespace());
        claims.put("nomad_task", c.task());
        claims.put("sub", String.join(":", c.region(), c.namespace(), c.jobId(), c.group(), c.task(), c.identity()));
        try {
            String signingInput = B64.encodeToString(JSON.writeValueAsBytes(header)) + "."
                    + B64.encodeToString(JSON.writeValueAsBytes(claims));
            Signature s = Signature.getInstance("Ed25519");
            s.initSign(key);
            s.update(signingInput.getBytes(StandardCharsets.US_ASCII));
            return signingInput + "." + B64.encodeToString(s.sign());
        } catch (IOException | GeneralSecurityException e) {
            throw new IllegalStateException("cannot sign a workload identity: " + e.getMessage(), e);
        }
    }

    /** The public half, to verify tokens (a verifier that trusts this node; tests). */
    java.security.PublicKey publicKey() {
        return publicKey;
    }
}
