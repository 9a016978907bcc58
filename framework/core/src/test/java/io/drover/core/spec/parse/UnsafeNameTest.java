package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.core.spec.Job;
import io.drover.core.spec.SafeName;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Issue 12, finding 1 and 7: job ids, group and task names become path components (the task directory, its
 * logs), written as root. A name that is not one safe path component is refused by the parser, in HCL and in
 * JSON (the API's {@code PUT /v1/jobs} reads through the same parser), with one line naming the key.
 */
class UnsafeNameTest {
    private static final ObjectMapper JSON = new ObjectMapper();

    static Stream<Arguments> unsafeNames() {
        return Stream.of(
                Arguments.of(Named.of("absolute path", "/tmp/x"), "must not contain '/'"),
                Arguments.of(Named.of("climbs out", "../../x"), "must not contain '/'"),
                Arguments.of(Named.of("dot-dot", ".."), "must not be \"..\""),
                Arguments.of(Named.of("dot", "."), "must not be \".\""),
                Arguments.of(Named.of("backslash", "a\\b"), "must not contain '\\'"),
                Arguments.of(Named.of("NUL", "a\u0000b"), "must not contain a NUL character (at character 2)"),
                Arguments.of(Named.of("line break", "a\nb"), "must not contain control characters (U+000A"),
                Arguments.of(Named.of("C1 control", "a\u0085"), "must not contain control characters (U+0085"),
                Arguments.of(Named.of("DEL", "a\u007f"), "must not contain control characters (U+007F"),
                Arguments.of(Named.of("line separator", "a\u2028"), "must not contain control characters (U+2028"),
                Arguments.of(Named.of("lone high surrogate", "a\ud800"), "is not valid Unicode (lone surrogate U+D800"),
                Arguments.of(Named.of("lone low surrogate", "\udc00b"), "is not valid Unicode (lone surrogate U+DC00"),
                Arguments.of(Named.of("129 characters", "x".repeat(129)), "is 129 characters long; at most 128"));
    }

    private static String hcl(String job, String group, String task) {
        return "job \"" + hclEscape(job) + "\" {\n  type = \"batch\"\n  group \"" + hclEscape(group) + "\" {\n"
                + "    task \"" + hclEscape(task) + "\" {\n      driver = \"mock\"\n    }\n  }\n}\n";
    }

    /** The name as an HCL string literal: control characters and surrogates as \\uXXXX escapes. */
    private static String hclEscape(String s) {
        StringBuilder sb = new StringBuilder();
        for (char c : s.toCharArray()) {
            if (c == '\\' || c == '"') {
                sb.append('\\').append(c);
            } else if (c < 0x20 || c >= 0x7f) {
                sb.append(String.format("\\u%04x", (int) c));
            } else {
                sb.append(c);
            }
        }
        return sb.toString();
    }

    private static byte[] json(String job, String group, String task) throws Exception {
        Map<String, Object> t = Map.of("Name", task, "Driver", "mock");
        Map<String, Object> g = Map.of("Name", group, "Tasks", List.of(t));
        return JSON.writeValueAsBytes(Map.of("Job", Map.of("ID", job, "Type", "batch", "TaskGroups", List.of(g))));
    }

    private static JobFileException refused(String file, byte[] content) {
        Throwable thrown = catchThrowable(() -> JobFileParser.parse(file, content));
        assertThat(thrown).isInstanceOf(JobFileException.class);
        JobFileException e = (JobFileException) thrown;
        assertThat(e.getMessage()).doesNotContain("\n", "\r", "\u0000", "\u2028").startsWith(file + ":");
        assertThat(e.getMessage().chars().noneMatch(c -> Character.isSurrogate((char) c))).as(e.getMessage()).isTrue();
        return e;
    }

    @ParameterizedTest(name = "task {0}")
    @MethodSource("unsafeNames")
    void anUnsafeTaskNameIsRefusedInHclAndJson(String name, String problem) throws Exception {
        JobFileException h = refused("a.hcl", hcl("j", "g", name).getBytes(StandardCharsets.UTF_8));
        assertThat(h.line()).isEqualTo(4);
        assertThat(h.key()).startsWith("job \"j\" > group \"g\" > task \"");
        assertThat(h.problem()).startsWith("the task name ").contains(problem);

        JobFileException j = refused("a.json", json("j", "g", name));
        assertThat(j.key()).startsWith("job \"j\" > group \"g\" > task \"");
        assertThat(j.problem()).startsWith("the task name ").contains(problem);
    }

    @ParameterizedTest(name = "group {0}")
    @MethodSource("unsafeNames")
    void anUnsafeGroupNameIsRefusedInHclAndJson(String name, String problem) throws Exception {
        JobFileException h = refused("a.hcl", hcl("j", name, "t").getBytes(StandardCharsets.UTF_8));
        assertThat(h.line()).isEqualTo(3);
        assertThat(h.key()).startsWith("job \"j\" > group \"").doesNotContain("task");
        assertThat(h.problem()).startsWith("the group name ").contains(problem);

        JobFileException j = refused("a.json", json("j", name, "t"));
        assertThat(j.problem()).startsWith("the group name ").contains(problem);
    }

    @ParameterizedTest(name = "job {0}")
    @MethodSource("unsafeNames")
    void anUnsafeJobIdIsRefusedInHclAndJson(String name, String problem) throws Exception {
        JobFileException h = refused("a.hcl", hcl(name, "g", "t").getBytes(StandardCharsets.UTF_8));
        assertThat(h.line()).isEqualTo(1);
        assertThat(h.key()).startsWith("job \"").doesNotContain("group");
        assertThat(h.problem()).startsWith("the job id ").contains(problem);

        JobFileException j = refused("a.json", json(name, "g", "t"));
        assertThat(j.problem()).startsWith("the job id ").contains(problem);
    }

    @Test
    void aTaskNamedAllocIsRefused() throws Exception {
        JobFileException e = refused("a.hcl", hcl("alloc", "alloc", "alloc").getBytes(StandardCharsets.UTF_8));
        assertThat(e.getMessage()).isEqualTo("a.hcl:4: job \"alloc\" > group \"alloc\" > task \"alloc\": the task name "
                + "must not be \"alloc\": that is the allocation's shared directory");
    }

    @Test
    void aJobNameWithANulOrALoneSurrogateIsRefused() throws Exception {
        String file = "job \"j\" {\n  name = \"a\\u0000\"\n  group \"g\" {\n    task \"t\" {\n      driver = \"mock\"\n"
                + "    }\n  }\n}\n";
        JobFileException e = refused("a.hcl", file.getBytes(StandardCharsets.UTF_8));
        assertThat(e.getMessage()).isEqualTo("a.hcl:2: job \"j\" > name: the job name must not contain a NUL "
                + "character (at character 2)");
    }

    @Test
    void theKeyShowsAnUnprintableNameEscapedOnOneLine() throws Exception {
        JobFileException e = refused("a.json", json("j", "g", "a\ud800\n"));
        assertThat(e.getMessage()).isEqualTo("a.json:1: job \"j\" > group \"g\" > task \"a\\ud800\\u000a\": the task "
                + "name is not valid Unicode (lone surrogate U+D800 at character 2)");
    }

    @Test
    void safeNamesStillParse() throws Exception {
        String longest = "x".repeat(SafeName.MAX_LENGTH);
        String emoji = "t\ud83d\ude80"; // a valid surrogate pair
        for (String name : List.of("web", "my task", "a.b", "...", "-x", longest, emoji, "é")) {
            Job hclJob = JobFileParser.parse("a.hcl", hcl("j", name, name).getBytes(StandardCharsets.UTF_8));
            assertThat(hclJob.groups().get(0).tasks().get(0).name()).isEqualTo(name);
            Job jsonJob = JobFileParser.parse("a.json", json("j", name, name));
            assertThat(jsonJob.groups().get(0).name()).isEqualTo(name);
        }
        assertThat(JobFileParser.parse("a.hcl", hcl(longest, "g", "t").getBytes(StandardCharsets.UTF_8)).id())
                .isEqualTo(longest);
    }
}
