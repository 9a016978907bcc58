package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.ChangeScript;
import io.drover.core.spec.Template;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * A template's {@code uid}, {@code gid}, {@code once} and {@code change_mode = "script"} with its {@code
 * change_script}, read as Nomad reads them (defaults: timeout 5s, fail_on_error false; a negative uid is unset), and
 * every misuse refused in one line per problem, all at once.
 */
class TemplateOptionsTest {
    private static String job(String... templates) {
        StringBuilder t = new StringBuilder();
        for (String body : templates) {
            t.append("      template {\n        data = \"x\"\n        destination = \"local/")
                    .append(t.length()).append(".txt\"\n").append(body).append("\n      }\n");
        }
        return """
                job "j" {
                  group "g" {
                    task "t" {
                      driver = "raw_exec"
                      config { command = "true" }
                %s    }
                  }
                }
                """.formatted(t);
    }

    private static List<Template> templates(String hcl) throws Exception {
        return JobFileParser.parse("j.hcl", hcl.getBytes(StandardCharsets.UTF_8)).groups().get(0).tasks().get(0)
                .runtime().templates();
    }

    private static String problems(String hcl) {
        try {
            JobFileParser.parse("j.hcl", hcl.getBytes(StandardCharsets.UTF_8));
        } catch (JobFileException e) {
            return String.join("\n", e.problems().stream().map(JobFileException::getMessage).toList());
        }
        throw new AssertionError("accepted: " + hcl);
    }

    @Test
    void aChangeScriptTakesNomadsDefaults() throws Exception {
        Template t = templates(job("change_mode = \"script\"\n change_script { command = \"/local/reload.sh\" }"))
                .get(0);
        assertThat(t.changeMode()).isEqualTo("script");
        assertThat(t.changeScript()).isEqualTo(new ChangeScript("/local/reload.sh", List.of(), Duration.ofSeconds(5),
                false));
        assertThat(t.uid()).isNull();
        assertThat(t.gid()).isNull();
        assertThat(t.once()).isFalse();
    }

    @Test
    void uidGidAndOnceAreRead() throws Exception {
        List<Template> ts = templates(job("uid = 65534\n gid = -1\n once = true", "once = true"));
        assertThat(ts.get(0).uid()).isEqualTo(65534);
        assertThat(ts.get(0).gid()).as("negative: unset, as in Nomad").isNull();
        assertThat(ts).allSatisfy(t -> assertThat(t.once()).isTrue());
    }

    @Test
    void everyMisuseIsOneLineAndAllAreReportedAtOnce() {
        String out = problems(job(
                "change_mode = \"script\"",
                "change_mode = \"script\"\n change_script {\n args = [\"x\"]\n timeout = \"0s\"\n }",
                "change_mode = \"noop\"\n change_script {\n command = \"x\"\n }",
                "uid = \"root\""));
        assertThat(out.lines().toList()).as(out).containsExactlyInAnyOrder(
                "j.hcl:6: job \"j\" > group \"g\" > task \"t\" > template: change_mode = \"script\" needs a "
                        + "change_script { command = \"...\" } block",
                "j.hcl:15: job \"j\" > group \"g\" > task \"t\" > template > change_script > command: is required: the "
                        + "script to run inside the task",
                "j.hcl:17: job \"j\" > group \"g\" > task \"t\" > template > change_script > timeout: must be positive",
                "j.hcl:24: job \"j\" > group \"g\" > task \"t\" > template > change_script: is only used with "
                        + "change_mode = \"script\" (found \"noop\")",
                "j.hcl:31: job \"j\" > group \"g\" > task \"t\" > template > uid: must be a whole number, found a string");
    }

    @Test
    void onceMustBeTheSameForEveryTemplateOfTheTask() {
        assertThat(problems(job("once = true", "change_mode = \"noop\""))).isEqualTo(
                "j.hcl:6: job \"j\" > group \"g\" > task \"t\" > template: once must be the same for every template of"
                        + " the task (Nomad: \"All templates should have same Once value\")");
    }
}
