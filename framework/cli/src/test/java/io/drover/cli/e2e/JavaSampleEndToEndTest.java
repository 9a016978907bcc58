package io.drover.cli.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import io.drover.cli.CliRun;
import io.drover.cli.ExitCodes;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * sample-jobs/java.hcl through the CLI in-process, with the java plugin JAR the build copies into
 * target/test-plugins: a real child JVM runs the Hello class the java plugin's build compiled into
 * sample-jobs/java/classes, found through {@code ${DROVER_HOME}} (surefire sets {@code drover.home} to the
 * repository root, as the ./drover launcher does). Run with {@code mvn verify}.
 */
class JavaSampleEndToEndTest {

    @TempDir
    Path dir;

    @Test
    void javaHclRunsHelloInAChildJvmThenThePoststopTask() throws Exception {
        Path config = TestConfig.write(dir);

        CliRun run = CliRun.of("run", "-json", "-config", config.toString(), TestConfig.SAMPLES.resolve("java.hcl").toString());

        assertThat(run.exitCode()).as(run.err()).isEqualTo(ExitCodes.OK);
        JsonNode alloc = Allocs.single(run);
        assertThat(alloc.get("ClientStatus").asText()).isEqualTo("complete");
        Allocs.assertAllDead(alloc);
        assertThat(alloc.get("TaskStates").get("hello").get("Failed").asBoolean()).isFalse();
        assertThat(Allocs.first(alloc, "goodbye", "Started")).as("poststop after hello")
                .isGreaterThanOrEqualTo(Allocs.first(alloc, "hello", "Terminated"));
        assertThat(Files.readString(log("hello.stdout.0")))
                .startsWith("Hello from task hello on Java ")
                .endsWith(", args: from job java\n");
    }

    private Path log(String name) throws Exception {
        try (Stream<Path> files = Files.walk(dir.resolve("data"))) {
            return files.filter(p -> p.getFileName().toString().equals(name)).findFirst()
                    .orElseThrow(() -> new AssertionError("no " + name + " under " + dir));
        }
    }
}
