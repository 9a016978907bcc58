package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.process.ProcessLeakCheck;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.Signature;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Workload identities through the real engine and raw_exec: the default identity with {@code env = true} is the
 * task's {@code NOMAD_TOKEN}, a named one with {@code file = true} is {@code secrets/nomad_<name>.jwt} (0600); both
 * are JWTs this node's key signed, with Nomad's claims for this allocation and task.
 */
@ExtendWith(ProcessLeakCheck.class)
class IdentityEngineTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    @TempDir
    Path dataDir;

    @Test
    void theTaskGetsSignedTokensInItsEnvAndSecrets() throws Exception {
        String job = """
                job "wid" {
                  type = "batch"
                  namespace = "team"
                  group "g" {
                    restart { attempts = 0 }
                    task "t" {
                      driver = "raw_exec"
                      identity {
                        env = true
                      }
                      identity {
                        name = "example"
                        aud  = ["example.com"]
                        file = true
                        ttl  = "1h"
                      }
                      env {
                        %s
                      }
                      config {
                        command = "sh"
                        args = ["-c", "echo $NOMAD_TOKEN; cat secrets/nomad_example.jwt"]
                      }
                    }
                  }
                }
                """.formatted(RawExecJobs.markerEnv());
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            AllocationState done = jobs.run(job);
            assertThat(done.clientStatus()).as(done.toString()).isEqualTo(ClientStatus.COMPLETE);
            String[] lines = jobs.stdout(done, "t").split("\n");
            assertThat(lines).hasSize(2);
            IdentitySigner signer = IdentitySigner.of(dataDir);

            JsonNode def = verified(lines[0], signer);
            assertThat(def.path("aud").toString()).isEqualTo("[\"nomadproject.io\"]");
            assertThat(def.path("nomad_allocation_id").asText()).isEqualTo(done.id());
            assertThat(def.path("nomad_job_id").asText()).isEqualTo("wid");
            assertThat(def.path("nomad_namespace").asText()).isEqualTo("team");
            assertThat(def.path("nomad_task").asText()).isEqualTo("t");
            assertThat(def.path("sub").asText()).isEqualTo("global:team:wid:g:t:default");
            assertThat(def.has("exp")).isFalse();

            JsonNode named = verified(lines[1], signer);
            assertThat(named.path("aud").toString()).isEqualTo("[\"example.com\"]");
            assertThat(named.path("sub").asText()).endsWith(":t:example");
            assertThat(named.path("exp").asLong() - named.path("iat").asLong()).isEqualTo(3600);
            Path file = AllocDirs.of(dataDir, done.id()).task("t").resolve("secrets/nomad_example.jwt");
            assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file))).isEqualTo("rw-------");
            assertThat(Files.exists(file.resolveSibling("nomad_token"))).isFalse(); // the default asked env only
        }
    }

    @Test
    void theKeyOutlivesTheSignerAndAForgedTokenFailsVerification() throws Exception {
        IdentitySigner first = IdentitySigner.of(dataDir);
        String token = first.sign(new IdentitySigner.Claims("global", "default", "j", "g", "a", "t", "default",
                java.util.List.of("x"), java.time.Instant.ofEpochSecond(1_000), null));
        Path key = dataDir.resolve("identity/ed25519.pk8");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key))).isEqualTo("rw-------");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(key.getParent())))
                .isEqualTo("rwx------");
        String[] parts = token.split("\\.");
        String forged = parts[0] + "." + Base64.getUrlEncoder().withoutPadding().encodeToString(
                "{\"nomad_task\":\"other\"}".getBytes(StandardCharsets.UTF_8)) + "." + parts[2];
        assertThat(signatureHolds(token, first)).isTrue();
        assertThat(signatureHolds(forged, first)).isFalse();
        assertThat(JSON.readTree(Base64.getUrlDecoder().decode(parts[0])).path("alg").asText()).isEqualTo("EdDSA");
    }

    private static JsonNode verified(String token, IdentitySigner signer) throws Exception {
        assertThat(signatureHolds(token, signer)).as(token).isTrue();
        return JSON.readTree(Base64.getUrlDecoder().decode(token.split("\\.")[1]));
    }

    private static boolean signatureHolds(String token, IdentitySigner signer) throws Exception {
        String[] parts = token.split("\\.");
        Signature s = Signature.getInstance("Ed25519");
        s.initVerify(signer.publicKey());
        s.update((parts[0] + "." + parts[1]).getBytes(StandardCharsets.US_ASCII));
        return s.verify(Base64.getUrlDecoder().decode(parts[2]));
    }
}
