package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.node.ObjectNode;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;

/**
 * Issue 12, findings 1 and 7, replayed over the API of a real agent: {@code PUT /v1/jobs} with a task or group
 * name that is a path ({@code /tmp/x}, {@code ../../x}, {@code ..}) or not valid text (NUL, a lone surrogate) is
 * answered 400 at once, naming the key; nothing is placed, nothing is written, no job is listed.
 */
class UnsafeNameApiTest extends RunningAgentTest {

    private String jsonJob(String group, String task) throws Exception {
        return TestAgent.JSON.writeValueAsString(Map.of("Job", Map.of("ID", "attack", "Type", "batch",
                "TaskGroups", List.of(Map.of("Name", group, "Tasks", List.of(Map.of("Name", task, "Driver", "mock",
                        "Config", Map.of("run_for", "10ms"))))))));
    }

    private TestAgent.Resp put(String body) throws Exception {
        long t0 = System.nanoTime();
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", body);
        // "at once": the old code held the PUT 30 s on a wedged placement, then answered 503
        assertThat((System.nanoTime() - t0) / 1_000_000).as("PUT answered in ms").isLessThan(5_000);
        return r;
    }

    private void assertNothingPlaced() throws Exception {
        assertThat(api.get("/v1/jobs").json()).isEmpty();
        assertThat(api.agent.engine().allocations()).isEmpty();
        Path allocs = tmp.resolve("data").resolve("alloc");
        if (Files.exists(allocs)) {
            try (Stream<Path> s = Files.list(allocs)) {
                assertThat(s.toList()).isEmpty();
            }
        }
    }

    @Test
    void aTaskNameWithANulIsA400AtOnce() throws Exception {
        TestAgent.Resp r = put(jsonJob("g", "a\u0000b"));

        assertThat(r.status()).as(r.body()).isEqualTo(400);
        assertThat(r.error()).isEqualTo("request.json:1: job \"attack\" > group \"g\" > task \"a\\u0000b\": the task "
                + "name must not contain a NUL character (at character 2)");
        assertNothingPlaced();
    }

    @Test
    void aLoneSurrogateInATaskOrGroupNameIsA400AtOnce() throws Exception {
        // the JSON escape itself: a Java string with a lone surrogate would be sent as '?' by the UTF-8 encoder
        TestAgent.Resp task = put(jsonJob("g", "tLONE").replace("LONE", "\\ud800"));
        assertThat(task.status()).as(task.body()).isEqualTo(400);
        assertThat(task.error()).contains("task \"t\\ud800\": the task name is not valid Unicode (lone surrogate U+D800");

        TestAgent.Resp group = put(jsonJob("gLONE", "t").replace("LONE", "\\udc00"));
        assertThat(group.status()).as(group.body()).isEqualTo(400);
        assertThat(group.error()).contains("group \"g\\udc00\": the group name is not valid Unicode");
        assertNothingPlaced();
        // job status still reads for everyone
        assertThat(api.get("/v1/jobs").status()).isEqualTo(200);
    }

    @Test
    void pathTaskNamesAreA400InJsonAndHcl() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        for (String name : List.of(outside.resolve("x").toString(), "../../x", "..", "alloc")) {
            TestAgent.Resp json = put(jsonJob("g", name));
            assertThat(json.status()).as(json.body()).isEqualTo(400);
            assertThat(json.error()).startsWith("request.json:1: job \"attack\" > group \"g\" > task \"")
                    .contains(": the task name must not");

            ObjectNode hcl = TestAgent.JSON.createObjectNode().put("JobHCL", "job \"attack\" {\n  type = \"batch\"\n"
                    + "  group \"g\" {\n    task \"" + name + "\" {\n      driver = \"mock\"\n    }\n  }\n}\n");
            TestAgent.Resp h = put(hcl.toString());
            assertThat(h.status()).as(h.body()).isEqualTo(400);
            assertThat(h.error()).startsWith("request.hcl:4: job \"attack\" > group \"g\" > task \"")
                    .contains(": the task name must not");
        }
        assertNothingPlaced();
        try (Stream<Path> s = Files.list(outside)) {
            assertThat(s.toList()).isEmpty();
        }
        assertThat(tmp.resolve("x")).doesNotExist();
    }
}
