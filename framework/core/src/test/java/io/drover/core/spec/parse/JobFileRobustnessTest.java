package io.drover.core.spec.parse;

import static io.drover.core.spec.parse.JobFileParserTest.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.fail;

import io.drover.core.spec.Job;
import java.util.Random;
import org.junit.jupiter.api.Test;

/**
 * Random mutations of valid files (seeded, so reproducible) give a Job or a JobFileException, nothing else:
 * no RuntimeException, no Error.
 */
class JobFileRobustnessTest {
    private static final int MUTANTS = 3000;
    private static final byte[] INTERESTING = "{}[]\"=:,\\$#/*<-\n 0.9e\u00ff\0".getBytes(java.nio.charset.StandardCharsets.ISO_8859_1);

    @Test
    void mutatedHclNeverThrowsAnythingElse() {
        check("job.hcl", resource("contract_example.hcl"), 17L);
    }

    @Test
    void mutatedJsonNeverThrowsAnythingElse() {
        check("job.json", resource("contract_example.json"), 42L);
    }

    @Test
    void randomBytesNeverThrowAnythingElse() {
        Random random = new Random(7);
        for (int i = 0; i < 500; i++) {
            byte[] bytes = new byte[random.nextInt(200)];
            random.nextBytes(bytes);
            parseOrRefuse(i % 2 == 0 ? "r.hcl" : "r.json", bytes);
        }
    }

    private static void check(String name, byte[] valid, long seed) {
        Random random = new Random(seed);
        int parsed = 0;
        for (int i = 0; i < MUTANTS; i++) {
            if (parseOrRefuse(name, mutate(valid, random)) != null) {
                parsed++;
            }
        }
        assertThat(parsed).as("some mutants are still valid jobs").isPositive();
    }

    private static Job parseOrRefuse(String name, byte[] content) {
        try {
            return JobFileParser.parse(name, content);
        } catch (JobFileException e) {
            assertThat(e.getMessage()).startsWith(name + ":").doesNotContain("\n")
                    .as("no internal error was papered over").doesNotContain("cannot read the job file (");
            return null;
        } catch (Throwable t) {
            return fail("%s escaped for input:%n%s", t, new String(content, java.nio.charset.StandardCharsets.ISO_8859_1));
        }
    }

    private static byte[] mutate(byte[] valid, Random random) {
        byte[] out = valid.clone();
        int edits = 1 + random.nextInt(4);
        for (int e = 0; e < edits; e++) {
            int at = random.nextInt(out.length);
            switch (random.nextInt(4)) {
                case 0 -> out[at] = (byte) random.nextInt(256);
                case 1 -> out[at] = INTERESTING[random.nextInt(INTERESTING.length)];
                case 2 -> { // delete a byte
                    byte[] shorter = new byte[out.length - 1];
                    System.arraycopy(out, 0, shorter, 0, at);
                    System.arraycopy(out, at + 1, shorter, at, out.length - at - 1);
                    out = shorter.length == 0 ? out : shorter;
                }
                default -> { // truncate
                    byte[] cut = new byte[Math.max(1, at)];
                    System.arraycopy(out, 0, cut, 0, cut.length);
                    out = cut;
                }
            }
        }
        return out;
    }
}
