package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import java.nio.charset.StandardCharsets;
import java.util.stream.Stream;
import org.junit.jupiter.api.Named;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** One row per class of bad job file: the one-line message names file, line, key and problem. */
class BadJobFileTest {

    /** A minimal valid job with one placeholder replaced: every row breaks one thing. */
    private static String job(String groupBody) {
        return "job \"j\" {\n  type = \"batch\"\n  group \"g\" {\n" + groupBody + "  }\n}\n";
    }

    private static final String MAIN = "    task \"main\" {\n      driver = \"mock\"\n    }\n";

    private static Arguments row(String name, String file, String text, int line, String expected) {
        return Arguments.of(Named.of(name, file), text.getBytes(StandardCharsets.UTF_8), line, expected);
    }

    static Stream<Arguments> badFiles() {
        return Stream.of(
                row("syntax error", "a.hcl", "job \"j\" {\n  type = batch\n}\n", 2,
                        "a.hcl:2: expected a value, found identifier batch"),
                row("unknown job key", "a.hcl", "job \"j\" {\n  typo = 1\n}\n", 2,
                        "a.hcl:2: job \"j\" > typo: unknown key (allowed: name, type,"),
                row("unknown task key", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      kill_timout = \"5s\"\n    }\n"), 6,
                        "a.hcl:6: job \"j\" > group \"g\" > task \"t\" > kill_timout: unknown key (allowed: driver, config,"),
                row("unknown top-level key", "a.hcl", "vars \"x\" {\n}\n", 1,
                        "a.hcl:1: vars: unknown key (allowed: job)"),
                row("bad duration", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      kill_timeout = \"5 seconds\"\n    }\n"), 6,
                        "a.hcl:6: job \"j\" > group \"g\" > task \"t\" > kill_timeout: unknown unit"),
                row("duration without unit", "a.hcl", job("    max_runtime = \"10\"\n" + MAIN), 4,
                        "> group \"g\" > max_runtime: missing unit in duration \"10\""),
                row("number as duration", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      kill_timeout = 5\n    }\n"), 6,
                        "kill_timeout: must be a duration string like \"5s\", found an integer"),
                row("wrong value type", "a.hcl", job("    count = \"one\"\n" + MAIN), 4,
                        "a.hcl:4: job \"j\" > group \"g\" > count: must be a whole number, found a string"),
                row("wrong type of a block", "a.hcl", job("    restart = 3\n" + MAIN), 4,
                        "> restart: must be a block or an object, found an integer"),
                row("duplicate task name", "a.hcl", job(MAIN + MAIN), 7,
                        "a.hcl:7: job \"j\" > group \"g\" > task \"main\": duplicate task name (first at line 4)"),
                row("duplicate group name", "a.hcl", "job \"j\" {\n  group \"g\" {\n" + MAIN + "  }\n  group \"g\" {\n" + MAIN + "  }\n}\n", 7,
                        "a.hcl:7: job \"j\" > group \"g\": duplicate group name (first at line 2)"),
                row("unknown lifecycle hook", "a.hcl", job(MAIN + "    task \"t\" {\n      driver = \"mock\"\n      lifecycle {\n        hook = \"poststart-ish\"\n      }\n    }\n"), 10,
                        "lifecycle > hook: unknown hook \"poststart-ish\" (allowed: prestart, poststart, poststop)"),
                row("lifecycle without hook", "a.hcl", job(MAIN + "    task \"t\" {\n      driver = \"mock\"\n      lifecycle {\n      }\n    }\n"), 9,
                        "lifecycle > hook: is required"),
                row("sidecar poststop", "a.hcl", job(MAIN + "    task \"t\" {\n      driver = \"mock\"\n      lifecycle {\n        hook = \"poststop\"\n        sidecar = true\n      }\n    }\n"), 11,
                        "a.hcl:11: job \"j\" > group \"g\" > task \"t\" > lifecycle > sidecar: a poststop task cannot be a sidecar"),
                row("gc_kill on a prestart task", "a.hcl", job(MAIN + "    task \"t\" {\n      driver = \"mock\"\n      lifecycle {\n        hook = \"prestart\"\n        gc_kill = true\n      }\n    }\n"), 11,
                        "a.hcl:11: job \"j\" > group \"g\" > task \"t\" > lifecycle > gc_kill: applies to poststop tasks only (this task's hook is prestart)"),
                row("count over the limit", "a.hcl", job("    count = 2147483647\n" + MAIN), 4,
                        "a.hcl:4: job \"j\" > group \"g\" > count: must be at most 10000 (got 2147483647)"),
                row("groups over the limit together", "a.hcl", "job \"j\" {\n  group \"a\" {\n    count = 6000\n" + MAIN + "  }\n  group \"b\" {\n    count = 6000\n" + MAIN + "  }\n}\n", 8,
                        "a.hcl:8: job \"j\": the job places 12000 allocations so far; at most 10000 per job"),
                row("no main task", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      lifecycle { hook = \"prestart\" }\n    }\n"), 3,
                        "a.hcl:3: job \"j\" > group \"g\": the group has no main task"),
                row("two leaders", "a.hcl", job("    task \"a\" {\n      driver = \"mock\"\n      leader = true\n    }\n    task \"b\" {\n      driver = \"mock\"\n\n      leader = true\n    }\n"), 11,
                        "a.hcl:11: job \"j\" > group \"g\" > task \"b\" > leader: more than one leader in the group (task \"a\""),
                row("bad restart mode", "a.hcl", job("    restart {\n      mode = \"retry\"\n    }\n" + MAIN), 5,
                        "a.hcl:5: job \"j\" > group \"g\" > restart > mode: must be fail or delay, found \"retry\""),
                row("bad job type", "a.hcl", "job \"j\" {\n  type = \"cron\"\n}\n", 2,
                        "a.hcl:2: job \"j\" > type: must be batch, service, system or sysbatch, found \"cron\""),
                row("system job with a count", "a.hcl", "job \"j\" {\n  type = \"system\"\n  group \"g\" {\n"
                        + "    count = 2\n" + MAIN + "  }\n}\n", 4, "a.hcl:4: job \"j\" > group \"g\" > count: Job task "
                        + "group g has count 2. Count cannot exceed 1 with system scheduler"),
                row("unknown constraint operator", "a.hcl", job("    constraint {\n      attribute = \"${attr.kernel.name}\"\n"
                        + "      operator = \"like\"\n      value = \"linux\"\n    }\n" + MAIN), 6,
                        "a.hcl:6: job \"j\" > group \"g\" > constraint > operator: unknown operator \"like\""),
                row("constraint regexp that is none", "a.hcl", job("    constraint {\n      attribute = \"${attr.os.name}\"\n"
                        + "      regexp = \"(deb\"\n    }\n" + MAIN), 6,
                        "a.hcl:6: job \"j\" > group \"g\" > constraint > regexp: not a regular expression"),
                row("constraint version that is none", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n"
                        + "      constraint {\n        attribute = \"${attr.kernel.version}\"\n"
                        + "        version = \">= five\"\n      }\n    }\n"), 8,
                        "a.hcl:8: job \"j\" > group \"g\" > task \"t\" > constraint > version: not a version constraint"),
                row("constraint without a value", "a.hcl", job("    constraint {\n      attribute = \"${node.class}\"\n"
                        + "    }\n" + MAIN), 4, "a.hcl:4: job \"j\" > group \"g\" > constraint > value: is required with "
                        + "operator \"=\""),
                row("affinity weight 0", "a.hcl", job("    affinity {\n      attribute = \"${node.datacenter}\"\n"
                        + "      value = \"dc1\"\n      weight = 0\n    }\n" + MAIN), 7,
                        "affinity > weight: must not be 0"),
                row("negative duration", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      shutdown_delay = \"-1s\"\n    }\n"), 6,
                        "shutdown_delay: must not be negative"),
                row("zero max_runtime", "a.hcl", job("    max_runtime = \"0s\"\n" + MAIN), 4,
                        "job \"j\" > group \"g\" > max_runtime: must be positive"),
                row("negative count", "a.hcl", job("    count = -1\n" + MAIN), 4,
                        "a.hcl:4: job \"j\" > group \"g\" > count: must not be negative (got -1)"),
                row("negative attempts", "a.hcl", job("    restart { attempts = -2 }\n" + MAIN), 4,
                        "restart > attempts: must not be negative (got -2)"),
                row("zero max_files", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      logs { max_files = 0 }\n    }\n"), 6,
                        "logs > max_files: must be at least 1 (got 0)"),
                row("unknown signal", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      kill_signal = \"SIGFOO\"\n    }\n"), 6,
                        "kill_signal: unknown signal \"SIGFOO\""),
                row("missing driver", "a.hcl", job("    task \"t\" {\n      leader = true\n    }\n"), 4,
                        "a.hcl:4: job \"j\" > group \"g\" > task \"t\" > driver: is required"),
                row("empty driver", "a.hcl", job("    task \"t\" {\n      driver = \"\"\n    }\n"), 5,
                        "driver: must not be empty"),
                row("no group", "a.hcl", "job \"j\" {\n}\n", 1, "a.hcl:1: job \"j\": the job has no task group"),
                row("no task", "a.hcl", job(""), 3, "a.hcl:3: job \"j\" > group \"g\": the group has no task"),
                row("empty file", "a.hcl", "", 0, "a.hcl: empty file"),
                row("blank file", "a.hcl", " \n\t\n", 0, "a.hcl: empty file"),
                row("only comments", "a.hcl", "# nothing here\n", 0, "a.hcl: no job block"),
                row("more than one job", "a.hcl", "job \"a\" {\n}\njob \"b\" {\n}\n", 3,
                        "a.hcl:3: job: more than one job in the file (first at line 1)"),
                row("job without id", "a.hcl", "job {\n}\n", 1, "a.hcl:1: job: job takes exactly one label"),
                row("empty job id", "a.hcl", "job \"\" {\n}\n", 1, "a.hcl:1: job: the job id must not be empty"),
                row("job id with spaces", "a.hcl", "job \"my job\" {\n}\n", 1,
                        "a.hcl:1: job \"my job\": the job id must not contain spaces"),
                row("set twice", "a.hcl", job("    restart {\n    }\n    restart {\n    }\n" + MAIN), 6,
                        "a.hcl:6: job \"j\" > group \"g\" > restart: set more than once (first at line 4)"),
                row("duplicate attribute", "a.hcl", "job \"j\" {\n  type = \"batch\"\n  type = \"batch\"\n}\n", 3,
                        "a.hcl:3: duplicate attribute type (first set at line 2)"),
                row("env not a string", "a.hcl", job("    task \"t\" {\n      driver = \"mock\"\n      env {\n        A = [1]\n      }\n    }\n"), 7,
                        "a.hcl:7: job \"j\" > group \"g\" > task \"t\" > env > A: must be a string, found a list"),
                row("JSON syntax", "a.json", "{\"Job\": {\n  \"ID\": \"j\",\n  \"Type\": batch\n}}", 3, "a.json:3: JSON syntax:"),
                row("JSON duplicate key", "a.json", "{\"Job\": {\n  \"ID\": \"j\",\n  \"ID\": \"k\"\n}}", 3,
                        "a.json:3: ID: duplicate key (first at line 2)"),
                row("JSON unknown key", "a.json", "{\"Job\": {\"ID\": \"j\", \"TaskGroups\": [{\n  \"Name\": \"g\",\n  \"Tasks\": [{\"Name\": \"t\", \"Driver\": \"mock\",\n    \"KillTimeOut\": 5}]}]}}", 4,
                        "a.json:4: job \"j\" > group \"g\" > task \"t\" > KillTimeOut: unknown key (allowed: Driver, Config,"),
                row("JSON wrong type", "a.json", "{\"Job\": {\"ID\": \"j\", \"TaskGroups\": [{\n  \"Name\": \"g\",\n  \"Count\": \"2\",\n  \"Tasks\": []}]}}", 3,
                        "a.json:3: job \"j\" > group \"g\" > Count: must be a whole number, found a string"),
                row("JSON without ID", "a.json", "{\"Job\": {\n  \"Name\": \"j\"}}", 1, "a.json:1: Job > ID: is required"),
                row("JSON not an object", "a.json", "[1, 2]", 1, "a.json:1: expected a JSON object"),
                row("JSON lowercase keys", "a.json", "{\"Job\": {\"ID\": \"j\",\n \"type\": \"batch\"}}", 2,
                        "a.json:2: job \"j\" > type: unknown key (allowed: Name, Type,"));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("badFiles")
    void isRefusedWithOneLineNamingFileLineKeyAndProblem(String file, byte[] content, int line, String expected) {
        Throwable thrown = catchThrowable(() -> JobFileParser.parse(file, content));

        assertThat(thrown).isInstanceOf(JobFileException.class);
        JobFileException e = (JobFileException) thrown;
        assertThat(e.getMessage()).doesNotContain("\n").contains(expected);
        assertThat(e.line()).isEqualTo(line);
        assertThat(e.getMessage()).startsWith(line > 0 ? file + ":" + line + ": " : file + ": ");
        assertThat(e.getMessage()).isEqualTo(file + (line > 0 ? ":" + line : "") + ": "
                + (e.key().isEmpty() ? "" : e.key() + ": ") + e.problem());
    }

    static Stream<Arguments> binaryFiles() {
        return Stream.of(
                Arguments.of(Named.of("NUL bytes", new byte[] {'j', 'o', 'b', 0, 1, 2})),
                Arguments.of(Named.of("invalid UTF-8", new byte[] {'j', 'o', 'b', ' ', (byte) 0xC3, (byte) 0x28})),
                Arguments.of(Named.of("lone continuation byte", new byte[] {(byte) 0x80, 'a'})));
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("binaryFiles")
    void binaryFilesAreNotText(byte[] content) {
        for (String name : new String[] {"x.hcl", "x.json"}) {
            Throwable thrown = catchThrowable(() -> JobFileParser.parse(name, content));
            assertThat(thrown).isInstanceOf(JobFileException.class)
                    .hasMessageStartingWith(name + ": not a text file");
        }
    }

    @org.junit.jupiter.api.Test
    void controlCharactersInKeysAndLabelsDoNotBreakTheLine() {
        Throwable json = catchThrowable(() -> JobFileParser.parse("a.json",
                "{\"Job\": {\"ID\": \"j\", \"A\\nB\": 1}}".getBytes(StandardCharsets.UTF_8)));
        assertThat(json).isInstanceOf(JobFileException.class).hasMessage(
                "a.json:1: job \"j\" > A\\nB: unknown key (allowed: Name, Type, Datacenters, Region, Namespace, "
                        + "Priority, Meta, AllAtOnce, Periodic, ParameterizedJob, Update, Reschedule, Migrate, NodePool, Vault, Consul, TaskGroups, "
                        + "Constraints, Affinities, Spreads)");
        Throwable hcl = catchThrowable(() -> JobFileParser.parse("a.hcl",
                "job \"a\\nb\" {\n}\n".getBytes(StandardCharsets.UTF_8)));
        assertThat(hcl).isInstanceOf(JobFileException.class).hasMessageNotContaining("\n");
    }
}
