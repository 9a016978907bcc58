package io.drover.cli;

import static org.assertj.core.api.Assertions.assertThat;

import java.lang.reflect.Field;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Objects;
import java.util.concurrent.Callable;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;
import picocli.CommandLine;
import picocli.CommandLine.ParseResult;

/**
 * {@link QuickArgs} takes a command line only when picocli would parse it without an error or a help request, and
 * then to the command picocli would run: the same class, every field (and the fields of its option mixins) equal.
 * Checked on every command line of up to four words drawn from each command's options, values, parameters and
 * the forms QuickArgs leaves to picocli; and on the forms users type, which it must take (else nothing is faster).
 */
class QuickArgsTest {
    private static final CliContext CTX = CliContext.of(System.out, System.err);

    /** Per command: the words its command lines are made of. */
    private static final Map<String, List<String>> WORDS = Map.of(
            "alloc status", List.of("-verbose", "--json", "-json", "-address", "--token", "h:1", "abc", "-h",
                    "--address=h:2", "--", "@none", "-x", ""),
            "alloc logs", List.of("-f", "--stderr", "-stderr", "-address", "-token", "h:1", "abc", "main", "-V",
                    "--f=true", "--", "-"),
            "job status", List.of("-address", "--address", "-token", "h:1", "web", "other", "--help", "-token=t",
                    "-", "@none", "-json"),
            "plugin status", List.of("-verbose", "--verbose", "-address", "--token", "h:1", "-config", "a.hcl",
                    "stray", "-h", "--config=a.hcl", "-"));

    static Stream<String> commands() {
        return WORDS.keySet().stream().sorted();
    }

    @ParameterizedTest
    @MethodSource("commands")
    void takesOnlyWhatPicocliParsesAndToTheSameCommand(String command) throws Exception {
        CommandLine root = Main.model(CTX);
        List<String> words = WORDS.get(command);
        int taken = 0;
        int lines = 0;
        for (List<String> rest : sequences(words, 4)) {
            List<String> argv = new ArrayList<>(List.of(command.split(" ")));
            argv.addAll(rest);
            String[] args = argv.toArray(String[]::new);
            Callable<Integer> quick = QuickArgs.command(args, CTX);
            lines++;
            if (quick == null) {
                continue;
            }
            taken++;
            Object picocli = parsedCommand(root, args);
            assertThat(picocli).as("picocli refuses %s, QuickArgs took it", argv).isNotNull();
            assertThat(quick.getClass()).as(String.join(" ", argv)).isEqualTo(picocli.getClass());
            assertThat(fields(quick)).as(String.join(" ", argv)).isEqualTo(fields(picocli));
        }
        assertThat(taken).as("command lines taken of %d", lines).isGreaterThan(40);
    }

    @Test
    void takesTheCommandLinesUsersType() {
        for (String line : List.of("alloc status 5b0e3c1a", "alloc status -verbose 5b0e3c1a",
                "alloc status -json 5b0e3c1a -address http://127.0.0.1:4747", "alloc logs 5b0e3c1a web",
                "alloc logs -stderr -f 5b0e3c1a web --address h:1", "job status", "job status web",
                "job status -token t web", "plugin status", "plugin status -verbose -address h:2")) {
            assertThat(QuickArgs.command(line.split(" "), CTX)).as(line).isNotNull();
        }
    }

    @Test
    void leavesHelpErrorsAndEveryOtherCommandToPicocli() {
        for (String line : List.of("", "--help", "alloc", "alloc status", "alloc status --help", "alloc status -h a",
                "alloc status a b", "alloc status -address", "alloc status a -address -json", "alloc stop a",
                "job run x.hcl", "job status a b", "plugin status -config a.hcl", "alloc status --address=h:1 a",
                "alloc status -- a", "alloc status @args", "alloc logs a", "alloc status -json -json a")) {
            assertThat(QuickArgs.command(line.isEmpty() ? new String[0] : line.split(" "), CTX)).as(line).isNull();
        }
    }

    /** The command object picocli would run for {@code args}, or null for a parse error or a help request. */
    private static Object parsedCommand(CommandLine root, String[] args) {
        try {
            ParseResult r = root.parseArgs(args);
            while (r.hasSubcommand()) {
                if (r.isUsageHelpRequested() || r.isVersionHelpRequested()) {
                    return null;
                }
                r = r.subcommand();
            }
            return r.isUsageHelpRequested() || r.isVersionHelpRequested() ? null : r.commandSpec().userObject();
        } catch (CommandLine.ParameterException e) {
            return null;
        }
    }

    /** Every field's value by name, the option mixins' fields included; the context left out (the same one). */
    private static Map<String, Object> fields(Object command) throws IllegalAccessException {
        Map<String, Object> values = new LinkedHashMap<>();
        for (Field f : command.getClass().getDeclaredFields()) {
            if (java.lang.reflect.Modifier.isStatic(f.getModifiers()) || f.getType() == CliContext.class) {
                continue;
            }
            f.setAccessible(true);
            Object v = f.get(command);
            if (v != null && v.getClass().getPackageName().startsWith("io.drover.cli")) {
                values.put(f.getName(), fields(v));
            } else {
                values.put(f.getName(), Objects.toString(v, null));
            }
        }
        return values;
    }

    /** Every sequence of 0 to {@code max} of the words (repetitions included). */
    private static List<List<String>> sequences(List<String> words, int max) {
        List<List<String>> all = new ArrayList<>();
        all.add(List.of());
        List<List<String>> last = List.of(List.of());
        for (int n = 1; n <= max; n++) {
            List<List<String>> next = new ArrayList<>();
            for (List<String> s : last) {
                for (String w : words) {
                    List<String> longer = new ArrayList<>(s);
                    longer.add(w);
                    next.add(longer);
                }
            }
            all.addAll(next);
            last = next;
        }
        return all;
    }
}
