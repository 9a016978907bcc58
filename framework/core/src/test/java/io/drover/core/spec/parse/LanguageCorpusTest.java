package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.spec.Job;
import java.net.URISyntaxException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The committed corpus (src/test/resources/corpus, written for Drover, not copied): valid/ uses every construct
 * the real Nomad corpus uses (docs/jobs.md) and must validate; refused/ needs a service one node lacks and must
 * be refused in one line naming it.
 */
class LanguageCorpusTest {
    private static final FakeDrivers DRIVERS = new FakeDrivers().with("mock", c -> List.of()).with("raw_exec", c -> List.of())
            .with("exec", c -> List.of());

    private static Path dir(String name) throws URISyntaxException {
        return Path.of(LanguageCorpusTest.class.getResource("/corpus/" + name).toURI());
    }

    static Stream<Path> valid() throws Exception {
        return Files.list(dir("valid")).sorted();
    }

    static Stream<Path> refused() throws Exception {
        return Files.list(dir("refused")).sorted();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("valid")
    void validates(Path file) throws Exception {
        Job job = JobFileParser.parse(file);
        assertThat(JobDriverCheck.check(job, DRIVERS)).isEmpty();
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("refused")
    void isRefusedInOneLineNamingWhatItNeeds(Path file) {
        Throwable t = catchThrowable(() -> JobFileParser.parse(file));
        assertThat(t).isInstanceOf(JobFileException.class);
        List<JobFileException> problems = ((JobFileException) t).problems();
        assertThat(problems).singleElement().satisfies(p -> assertThat(p.getMessage())
                .matches(".*\\.hcl:\\d+: .*needs (Vault|Consul|Consul Connect|CSI) \\((\\w+ block|identity \"\\w+\"), line \\d+.*\\), "
                        + "which one Drover node does not have.*"));
    }

    @Test
    void togetherTheValidFilesUseEveryConstruct() throws Exception {
        StringBuilder all = new StringBuilder();
        for (Path p : valid().toList()) {
            all.append(Files.readString(p));
        }
        String text = all.toString();
        Map<String, String> constructs = Map.ofEntries(
                Map.entry("variable block", "variable \""), Map.entry("validation", "validation {"),
                Map.entry("list type", "list(string)"), Map.entry("map type", "map(string)"),
                Map.entry("object type", "object({"), Map.entry("locals", "locals {"),
                Map.entry("for list", "[for "), Map.entry("for map", "{ for "), Map.entry("grouping", "s..."),
                Map.entry("splat", "[*]"), Map.entry("legacy splat", ".*."), Map.entry("conditional", " ? "),
                Map.entry("heredoc", "<<EOF"), Map.entry("indented heredoc", "<<-EOT"), Map.entry("for directive", "%{ for"),
                Map.entry("if directive", "%{ if"), Map.entry("strip marker", "~}"), Map.entry("escape", "$${"),
                Map.entry("directive escape", "%%{"), Map.entry("dynamic block", "dynamic \""),
                Map.entry("run-time reference", "${NOMAD_"), Map.entry("node reference", "${node."),
                Map.entry("expansion", "...)"), Map.entry("string conversion", "count = \"1\""),
                Map.entry("memory_max -1", "memory_max = -1"), Map.entry("nomad service", "provider = \"nomad\""),
                Map.entry("max_run_duration", "max_run_duration = "), Map.entry("identity env", "env  = true"),
                Map.entry("identity file", "file = true"), Map.entry("identity ttl", "ttl  = "),
                Map.entry("task user", "user   = "), Map.entry("resources disk", "disk   = "),
                Map.entry("ephemeral_disk", "ephemeral_disk {"), Map.entry("update", "update {"),
                Map.entry("reschedule", "reschedule {"), Map.entry("migrate", "migrate {"),
                Map.entry("scaling", "scaling {"), Map.entry("constraint", "constraint {"),
                Map.entry("affinity", "affinity {"), Map.entry("spread", "spread {"),
                Map.entry("spread target", "target \"dc1\""), Map.entry("priority", "priority    = "),
                Map.entry("node_pool", "node_pool   = "), Map.entry("all_at_once", "all_at_once = "),
                Map.entry("host volume", "type      = \"host\""), Map.entry("per_alloc volume", "per_alloc = true"),
                Map.entry("volume_mount", "volume_mount {"), Map.entry("propagation_mode", "propagation_mode = "));
        constructs.forEach((name, token) -> assertThat(text).as(name).contains(token));
    }
}
