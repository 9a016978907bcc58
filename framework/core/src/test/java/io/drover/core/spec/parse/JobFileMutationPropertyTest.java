package io.drover.core.spec.parse;

import io.drover.core.testing.Gen;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.driver.DriverCatalog;
import io.drover.core.spec.Job;
import io.drover.driver.api.TaskDriver;
import io.drover.plugins.mock.MockDriver;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Random byte mutations of every job file in sample-jobs/ (HCL and JSON): the parser returns a Job or refuses
 * with a {@link JobFileException} whose message is one line, {@code file[:line]: [key: ]problem}, and never
 * an internal error papered over; an accepted mutant is checked against the drivers without any exception.
 * 1,000 tries, seeds {@link #SEED_BASE} + i (see {@link Gen}: {@code -Ddrover.property.seed=N} replays one,
 * {@code -Ddrover.property.tries=N} changes the count); a failure prints the seed, the edits and the mutant. No
 * shrinking. (The seeded JobFileRobustnessTest does the same on the contract's example.)
 */
class JobFileMutationPropertyTest {
    private static final Path SAMPLES = Path.of("../../sample-jobs");
    private static final byte[] INTERESTING =
            "{}[]\"=:,\\$#/*<-\n 0.9e\u00ff\0".getBytes(StandardCharsets.ISO_8859_1);

    enum Kind { REPLACE, INTERESTING, DELETE, INSERT, TRUNCATE, DUPLICATE }

    /** One edit: what, where (modulo the length), and the byte it puts in. */
    record Edit(Kind kind, int at, int length, byte value) {}

    /** A mutated file: its name (the extension picks the syntax) and bytes. */
    record Mutant(String name, byte[] bytes, List<Edit> edits) {
        @Override
        public String toString() {
            return name + " after " + edits + ":\n" + new String(bytes, StandardCharsets.ISO_8859_1);
        }
    }

    static List<Path> samples() {
        try (Stream<Path> files = Files.list(SAMPLES)) {
            return files.filter(p -> p.toString().endsWith(".hcl") || p.toString().endsWith(".json"))
                    .filter(p -> !p.getFileName().toString().startsWith("agent-")) // agent configs, not jobs
                    .sorted().toList();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Fixed, so every run generates the same mutants. */
    static final long SEED_BASE = 0;

    static Mutant mutant(Gen g, List<Path> files) {
        Path file = g.pick(files);
        List<Edit> edits = g.listOf(1, 6,
                gg -> new Edit(gg.pick(Kind.values()), gg.between(0, 1 << 16), gg.between(1, 80), gg.nextByte()));
        return new Mutant(file.getFileName().toString(), apply(read(file), edits), edits);
    }

    @Test
    void parserAcceptsOrRefusesWithAOneLineMessage() {
        List<Path> files = samples();
        Gen.forAll(SEED_BASE, 1000, g -> mutant(g, files), JobFileMutationPropertyTest::acceptsOrRefuses);
    }

    static void acceptsOrRefuses(Mutant mutant) {
        Job job;
        try {
            job = JobFileParser.parse(mutant.name(), mutant.bytes());
        } catch (JobFileException e) {
            assertThat(e.getMessage()).matches(Pattern.quote(mutant.name()) + "(:[1-9][0-9]*(:[1-9][0-9]*)?)?: \\S.*")
                    .doesNotContain("\n").doesNotContain("cannot read the job file (");
            assertThat(e.file()).isEqualTo(mutant.name());
            return;
        }
        for (JobFileException p : JobDriverCheck.check(job, DRIVERS)) {
            assertThat(p.getMessage()).doesNotContain("\n").doesNotContain("failed to check the config");
        }
    }

    /** The real mock driver; raw_exec and java as names only (their configs are checked in their modules). */
    private static final DriverCatalog DRIVERS = new DriverCatalog() {
        private final Map<String, TaskDriver> drivers = Map.of("mock", new MockDriver());

        @Override
        public Optional<TaskDriver> driver(String name) {
            return Optional.ofNullable(drivers.get(name));
        }

        @Override
        public Set<String> names() {
            return Set.of("mock", "raw_exec", "java");
        }
    };

    private static byte[] read(Path file) {
        try {
            return Files.readAllBytes(file);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    static byte[] apply(byte[] original, List<Edit> edits) {
        byte[] out = original.clone();
        for (Edit e : edits) {
            if (out.length == 0) {
                break;
            }
            int at = e.at() % out.length;
            int len = Math.min(e.length(), out.length - at);
            out = switch (e.kind()) {
                case REPLACE -> set(out, at, e.value());
                case INTERESTING -> set(out, at, INTERESTING[Math.floorMod(e.value(), INTERESTING.length)]);
                case DELETE -> splice(out, at, len, new byte[0]);
                case INSERT -> splice(out, at, 0, new byte[] {e.value()});
                case TRUNCATE -> java.util.Arrays.copyOf(out, at);
                case DUPLICATE -> splice(out, at, 0, java.util.Arrays.copyOfRange(out, at, at + len));
            };
        }
        return out;
    }

    private static byte[] set(byte[] in, int at, byte value) {
        byte[] out = in.clone();
        out[at] = value;
        return out;
    }

    private static byte[] splice(byte[] in, int at, int remove, byte[] insert) {
        byte[] out = new byte[in.length - remove + insert.length];
        System.arraycopy(in, 0, out, 0, at);
        System.arraycopy(insert, 0, out, at, insert.length);
        System.arraycopy(in, at + remove, out, at + insert.length, in.length - at - remove);
        return out;
    }
}
