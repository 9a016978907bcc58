package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.parse.hcl.HclInputs;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A whole job file in HCL2 as Nomad reads it: variables, locals, functions, conversions, every problem at once. */
class JobLanguageTest {
    private static final String JOB = """
            variable "count" {
              type    = number
              default = 2
              validation {
                condition     = var.count > 0 && var.count < 10
                error_message = "count must be 1 to 9"
              }
            }
            variable "args" {
              type    = list(string)
              default = ["-c", "echo hi"]
            }
            locals {
              name = "web-${var.count}"
              env  = { for k in ["A", "B"] : k => lower(k) }
            }
            job "lang" {
              datacenters = ["dc1"]
              type        = "batch"
              group "g" {
                count = var.count
                task "t" {
                  driver = "raw_exec"
                  leader = "true"
                  config {
                    command = "/bin/sh"
                    args    = concat(var.args, [local.name, attr.kernel.name])
                    note    = "${NOMAD_ALLOC_DIR}/x"
                  }
                  env = local.env
                  resources {
                    cpu    = "500"
                    memory = 64 * 2
                  }
                }
              }
            }
            """;

    private static Job parse(String text, HclInputs inputs) throws JobFileException {
        return JobFileParser.parse("job.hcl", text.getBytes(StandardCharsets.UTF_8), inputs);
    }

    private static List<String> problems(String text, HclInputs inputs) {
        Throwable t = catchThrowable(() -> parse(text, inputs));
        assertThat(t).isInstanceOf(JobFileException.class);
        return ((JobFileException) t).problems().stream().map(JobFileException::getMessage).toList();
    }

    @Test
    void variablesLocalsFunctionsAndConversionsMakeTheJob() throws Exception {
        Job job = parse(JOB, HclInputs.NONE);
        assertThat(job.groups().get(0).count()).isEqualTo(2);
        Task t = job.groups().get(0).tasks().get(0);
        assertThat(t.leader()).isTrue();
        assertThat(t.config()).containsEntry("args", List.of("-c", "echo hi", "web-2", "${attr.kernel.name}"))
                .containsEntry("note", "${NOMAD_ALLOC_DIR}/x");
        assertThat(t.env()).containsExactly(Map.entry("A", "a"), Map.entry("B", "b"));
    }

    @Test
    void flagsEnvironmentAndVarFilesSetTheVariables() throws Exception {
        HclInputs inputs = new HclInputs(Map.of("count", "4"),
                List.of(new HclInputs.Source("prod.hcl", "args = [\"-x\"]\n")), Map.of("count", "3"), Optional.empty());
        Job job = parse(JOB, inputs);
        assertThat(job.groups().get(0).count()).isEqualTo(4);
        assertThat(job.groups().get(0).tasks().get(0).config().get("args")).isEqualTo(List.of("-x", "web-4", "${attr.kernel.name}"));
    }

    @Test
    void everyProblemAtOnceWithLineAndColumn() {
        HclInputs inputs = new HclInputs(Map.of("count", "12", "nope", "1"),
                List.of(new HclInputs.Source("bad.hcl", "args = 5\n")), Map.of(), Optional.empty());
        String text = JOB.replace("memory = 64 * 2", "memory = 64 * \"x\"").replace("driver = \"raw_exec\"",
                "driver = var.missing");
        assertThat(problems(text, inputs)).containsExactly(
                "bad.hcl:1: args: not a list(string): a list(string) is required, found a number",
                "job.hcl: -var nope: no variable \"nope\" is declared in the job file (declared: count, args)",
                "job.hcl:5: variable \"count\": count must be 1 to 9",
                "job.hcl:23:16: no variable \"missing\" is declared (declared: count, args)",
                "job.hcl:33:23: \"x\" is not a number");
    }

    @Test
    void aVariableWithoutAValueIsNamed() {
        assertThat(problems("variable \"image\" {}\njob \"j\" {\n}\n", HclInputs.NONE)).first().isEqualTo(
                "job.hcl:1: Unset variable \"image\": a used variable must be set or have a default value (-var "
                        + "image=..., a -var-file or NOMAD_VAR_image)");
    }

    @Test
    void fileReadsBesideTheJobFileButNotInAJobSentAsText(@TempDir Path dir) throws Exception {
        Files.writeString(dir.resolve("script.sh"), "echo from-file\n");
        String text = JOB.replace("note    = \"${NOMAD_ALLOC_DIR}/x\"", "note    = file(\"script.sh\")");
        Path job = Files.writeString(dir.resolve("job.hcl"), text);
        assertThat(JobFileParser.parse(job).groups().get(0).tasks().get(0).config()).containsEntry("note", "echo from-file\n");
        assertThat(problems(text, HclInputs.NONE)).singleElement().asString()
                .contains("file(): filesystem functions are disabled in a job sent to the agent");
    }

    @Test
    void aBareWordStillGetsTheOldHint() {
        assertThat(problems("job \"j\" {\n  type = batch\n}\n", HclInputs.NONE)).singleElement().asString()
                .startsWith("job.hcl:2: expected a value, found identifier batch (quote a string: \"batch\"");
    }
}
