package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import java.util.regex.Matcher;
import java.util.regex.Pattern;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.condition.EnabledIfSystemProperty;

/**
 * The long-form corpus check (docs/jobs.md, "The corpus"): {@code -Ddrover.corpus=DIR} validates every Nomad job
 * file under DIR (*.nomad, *.hcl with a job block) whose tasks use only raw_exec, exec, java or mock, and writes
 * how many validate, how many are refused for Consul/Vault/CSI/Connect, and how many fail and why, to
 * target/corpus-report.txt. Fails when a file breaks the contract: a problem that is not one line naming the
 * file, or a language problem (a message with a column: the expression layer could not read the file).
 */
@EnabledIfSystemProperty(named = "drover.corpus", matches = ".+")
class NomadCorpusCheck {
    private static final Pattern DRIVER = Pattern.compile("driver\\s*=\\s*\"([a-z_0-9]+)\"");
    private static final List<String> DRIVERS = List.of("raw_exec", "exec", "java", "mock", "mock_driver");

    @Test
    void validatesTheCorpus() throws IOException {
        Path root = Path.of(System.getProperty("drover.corpus"));
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".nomad") || p.toString().endsWith(".hcl"))
                    .sorted().toList();
        }
        int considered = 0;
        int valid = 0;
        Map<String, Integer> refused = new TreeMap<>();
        Map<String, Integer> failed = new TreeMap<>();
        List<String> language = new ArrayList<>();
        for (Path f : files) {
            String text = new String(Files.readAllBytes(f), StandardCharsets.UTF_8);
            if (!text.matches("(?s).*(^|\\n)\\s*job\\s+\"[^\"]*\"\\s*\\{.*")) {
                continue;
            }
            Matcher m = DRIVER.matcher(text);
            boolean ours = false;
            boolean others = false;
            while (m.find()) {
                ours |= DRIVERS.contains(m.group(1));
                others |= !DRIVERS.contains(m.group(1));
            }
            if (!ours || others) {
                continue;
            }
            considered++;
            try {
                JobFileParser.parse(f);
                valid++;
            } catch (JobFileException e) {
                String needs = null;
                for (JobFileException p : e.problems()) {
                    assertThat(p.getMessage()).doesNotContain("\n").startsWith(f.toString());
                    if (p.col() > 0) {
                        language.add(p.getMessage());
                    }
                    Matcher n = Pattern.compile("needs (Vault|Consul Connect|Consul|CSI)").matcher(p.problem());
                    if (needs == null && n.find()) {
                        needs = n.group(1);
                    }
                }
                if (needs != null) {
                    refused.merge(needs, 1, Integer::sum);
                } else {
                    failed.merge(category(e.problems().get(0)), 1, Integer::sum);
                }
            }
        }
        StringBuilder report = new StringBuilder();
        report.append("corpus: ").append(root).append('\n');
        report.append("job files with raw_exec/exec/java/mock only: ").append(considered).append('\n');
        report.append("validate: ").append(valid).append('\n');
        refused.forEach((k, v) -> report.append("refused, needs ").append(k).append(": ").append(v).append('\n'));
        failed.forEach((k, v) -> report.append("fail, first problem ").append(k).append(": ").append(v).append('\n'));
        language.forEach(l -> report.append("language problem: ").append(l).append('\n'));
        Path out = Path.of("target", "corpus-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        System.out.print(report);
        assertThat(considered).as("job files found under " + root).isPositive();
        assertThat(language).as("problems of the expression layer").isEmpty();
    }

    /** A failure's category: its problem with names and values taken out. */
    private static String category(JobFileException p) {
        String key = p.key().replaceAll("\"[^\"]*\"", "\"*\"");
        String problem = p.problem().replaceAll("\"[^\"]*\"", "\"*\"").replaceAll("\\(allowed: [^)]*\\)", "(allowed: ...)");
        return (key.isEmpty() ? "" : key + ": ") + problem;
    }
}
