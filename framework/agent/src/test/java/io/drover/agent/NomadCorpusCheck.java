package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.AgentConfig;
import io.drover.core.spec.Job;
import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.spec.placement.NodeFeasibility;
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
import org.junit.jupiter.api.io.TempDir;

/**
 * The long-form corpus check (docs/jobs.md, "The corpus"): {@code -Ddrover.corpus=DIR} (several separated by
 * {@code :}) validates every Nomad job file under DIR (*.nomad, *.hcl with a job block) whose tasks use only
 * raw_exec, exec, java or mock, places each valid one on this node (its constraints against this machine's
 * fingerprint, {@link NodeInfo}, with the four drivers loaded, as an agent with the default config places it),
 * and writes how many validate and place, which are not placed and Nomad's lines why, how many are refused for
 * Consul/Vault/CSI/Connect, and how many fail and why, per directory and in all, to target/corpus-report.txt. Fails when a file breaks the contract: a problem that is not one line naming the
 * file, or a language problem (a message with a column: the expression layer could not read the file).
 */
@EnabledIfSystemProperty(named = "drover.corpus", matches = ".+")
class NomadCorpusCheck {
    private static final Pattern DRIVER = Pattern.compile("driver\\s*=\\s*\"([a-z_0-9]+)\"");
    private static final List<String> DRIVERS = List.of("raw_exec", "exec", "java", "mock", "mock_driver");

    @TempDir
    Path tmp;

    @Test
    void validatesAndPlacesTheCorpus() throws IOException {
        NodeFeasibility node = NodeInfo.load(tmp, AgentConfig.defaults())
                .feasibility(List.of("raw_exec", "exec", "java", "mock"));
        StringBuilder report = new StringBuilder();
        Tally all = new Tally();
        for (String dir : System.getProperty("drover.corpus").split(":")) {
            Tally t = new Tally();
            check(Path.of(dir), node, t);
            t.report(dir, report);
            all.add(t);
        }
        all.report("all", report);
        Path out = Path.of("target", "corpus-report.txt");
        Files.createDirectories(out.getParent());
        Files.writeString(out, report.toString());
        System.out.print(report);
        assertThat(all.considered).as("job files found").isPositive();
        assertThat(all.language).as("problems of the expression layer").isEmpty();
    }

    /** The figures of one corpus directory. */
    static final class Tally {
        int considered;
        int valid;
        int placed;
        final Map<String, Integer> refused = new TreeMap<>();
        final Map<String, Integer> failed = new TreeMap<>();
        final Map<String, Integer> notPlaced = new TreeMap<>();
        final List<String> language = new ArrayList<>();
        final List<String> files = new ArrayList<>(); // each failing or unplaced file with its first problem

        void add(Tally o) {
            considered += o.considered;
            valid += o.valid;
            placed += o.placed;
            o.refused.forEach((k, v) -> refused.merge(k, v, Integer::sum));
            o.failed.forEach((k, v) -> failed.merge(k, v, Integer::sum));
            o.notPlaced.forEach((k, v) -> notPlaced.merge(k, v, Integer::sum));
            language.addAll(o.language);
            files.addAll(o.files);
        }

        void report(String name, StringBuilder r) {
            r.append("== ").append(name).append('\n');
            r.append("job files with raw_exec/exec/java/mock only: ").append(considered).append('\n');
            r.append("validate: ").append(valid).append(" (place on this node: ").append(placed).append(")\n");
            notPlaced.forEach((k, v) -> r.append("validate, not placed: ").append(k).append(": ").append(v).append('\n'));
            refused.forEach((k, v) -> r.append("refused, needs ").append(k).append(": ").append(v).append('\n'));
            failed.forEach((k, v) -> r.append("fail, first problem ").append(k).append(": ").append(v).append('\n'));
            language.forEach(l -> r.append("language problem: ").append(l).append('\n'));
            files.forEach(l -> r.append("  ").append(l).append('\n'));
        }
    }

    private static void check(Path root, NodeFeasibility node, Tally t) throws IOException {
        List<Path> files;
        try (Stream<Path> s = Files.walk(root)) {
            files = s.filter(Files::isRegularFile).filter(p -> p.toString().endsWith(".nomad") || p.toString().endsWith(".hcl"))
                    .sorted().toList();
        }
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
            t.considered++;
            try {
                Job job = JobFileParser.parse(f);
                t.valid++;
                List<NodeFeasibility.GroupPlacement> placement = node.place(job);
                List<String> why = placement.stream().flatMap(g -> g.failures().stream())
                        .filter(l -> l.startsWith("  * ")).map(l -> l.substring(4)).distinct().toList();
                if (placement.stream().allMatch(g -> g.placeable() >= g.count())) {
                    t.placed++;
                } else {
                    t.notPlaced.merge(String.join("; ", why), 1, Integer::sum);
                    t.files.add("not placed: " + f + ": " + String.join("; ", why));
                }
            } catch (JobFileException e) {
                String needs = null;
                for (JobFileException p : e.problems()) {
                    assertThat(p.getMessage()).doesNotContain("\n").startsWith(f.toString());
                    if (p.col() > 0) {
                        t.language.add(p.getMessage());
                    }
                    Matcher n = Pattern.compile("needs (Vault|Consul Connect|Consul|CSI|Nomad variables)").matcher(p.problem());
                    if (needs == null && n.find()) {
                        needs = n.group(1);
                    }
                }
                if (needs != null) {
                    t.refused.merge(needs, 1, Integer::sum);
                } else {
                    t.failed.merge(category(e.problems().get(0)), 1, Integer::sum);
                    t.files.add("fail: " + e.problems().get(0).getMessage());
                }
            }
        }
    }

    /** A failure's category: its problem with names and values taken out. */
    private static String category(JobFileException p) {
        String key = p.key().replaceAll("\"[^\"]*\"", "\"*\"");
        String problem = p.problem().replaceAll("\"[^\"]*\"", "\"*\"").replaceAll("\\(allowed: [^)]*\\)", "(allowed: ...)");
        return (key.isEmpty() ? "" : key + ": ") + problem;
    }
}
