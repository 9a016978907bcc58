package io.drover.core.artifact;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.artifact.ClientPath.Kind;
import io.drover.core.artifact.ClientPath.Target;
import java.nio.file.Path;
import java.util.Optional;
import java.util.stream.Stream;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** Nomad's ClientPath rule, as a table: where each form lands (root and path below it), or that it escapes. */
class ClientPathTest {
    private static final Path ALLOC = Path.of("/data/alloc/a1");
    private static final Path TASK = ALLOC.resolve("web");
    private static final Path SHARED = ALLOC.resolve("alloc");
    private static final ClientPath PATHS = new ClientPath(TASK, SHARED);

    static Stream<Arguments> table() {
        return Stream.of(
                // the four forms real Nomad jobs use
                row(SHARED + "/x", Kind.DESTINATION, SHARED, "x"),
                row("../alloc/x", Kind.DESTINATION, SHARED, "x"),
                row("/local/etc/x.conf", Kind.DESTINATION, TASK, "local/etc/x.conf"),
                row("/data/storage", Kind.DESTINATION, TASK, "data/storage"),
                // plain relative forms and the host task paths
                row("local/app.conf", Kind.DESTINATION, TASK, "local/app.conf"),
                row("local/", Kind.DESTINATION, TASK, "local"),
                row(TASK + "/local/x", Kind.DESTINATION, TASK, "local/x"),
                row(TASK + "/secrets/t.env", Kind.SOURCE, TASK, "secrets/t.env"),
                row(SHARED + "/data/in.tpl", Kind.SOURCE, SHARED, "data/in.tpl"),
                row("../web/local/x", Kind.DESTINATION, TASK, "local/x"),
                row("./local/./a/../b", Kind.DESTINATION, TASK, "local/b"),
                row("../alloc/../web/local/x", Kind.SOURCE, TASK, "local/x"),
                row("//local//x", Kind.DESTINATION, TASK, "local/x"),
                // an absolute path that escapes is re-rooted (a destination), cleaned inside the task dir
                row(SHARED + "/../other/x", Kind.DESTINATION, TASK, "data/alloc/a1/other/x"),
                row("/local/../x", Kind.DESTINATION, TASK, "x"),
                // escapes
                escape("../../x", Kind.DESTINATION),
                escape("../other-task/x", Kind.DESTINATION),
                escape("..", Kind.DESTINATION),
                escape("/../../etc/passwd", Kind.DESTINATION),
                escape("local/../../../x", Kind.DESTINATION),
                escape("../alloc/../../x", Kind.DESTINATION),
                escape("../allocx/y", Kind.DESTINATION),
                escape("/etc/passwd", Kind.SOURCE),
                escape(SHARED + "/../other/x", Kind.SOURCE),
                escape(ALLOC + "/web2/x", Kind.SOURCE),
                escape("../../x", Kind.SOURCE),
                escape("a\0b", Kind.DESTINATION));
    }

    private static Arguments row(String path, Kind kind, Path root, String relative) {
        return Arguments.of(path, kind, Optional.of(new Target(root, relative)));
    }

    private static Arguments escape(String path, Kind kind) {
        return Arguments.of(path, kind, Optional.empty());
    }

    @ParameterizedTest(name = "{1} \"{0}\" -> {2}")
    @MethodSource("table")
    void resolvesByNomadsRule(String path, Kind kind, Optional<Target> expected) {
        assertThat(PATHS.resolve(path, kind)).isEqualTo(expected);
        expected.ifPresent(t -> assertThat(t.path().normalize().startsWith(t.root())).isTrue());
    }

    static Stream<Arguments> parseTable() {
        return Stream.of(
                Arguments.of("../../x", Kind.DESTINATION, true),
                Arguments.of("../other-task/x", Kind.DESTINATION, true),
                Arguments.of("../web/x", Kind.DESTINATION, false),
                Arguments.of("../alloc/x", Kind.DESTINATION, false),
                Arguments.of("/local/etc/x.conf", Kind.DESTINATION, false),
                Arguments.of("/data/storage", Kind.DESTINATION, false),
                Arguments.of("${NOMAD_ALLOC_DIR}/x", Kind.DESTINATION, false),
                Arguments.of("${NOMAD_ALLOC_DIR}/../../x", Kind.DESTINATION, false),
                Arguments.of("/etc/x.tpl", Kind.SOURCE, true),
                Arguments.of("${NOMAD_TASK_DIR}/x.tpl", Kind.SOURCE, false),
                Arguments.of("local/x.tpl", Kind.SOURCE, false),
                Arguments.of("../../x.tpl", Kind.SOURCE, true));
    }

    @ParameterizedTest(name = "{1} \"{0}\" refused at parse time: {2}")
    @MethodSource("parseTable")
    void parseTimeRefusesOnlyWhatEscapesForCertain(String path, Kind kind, boolean refused) {
        Optional<String> problem = ClientPath.parseProblem(path, kind, "artifact destination", "web");
        assertThat(problem.isPresent()).as(String.valueOf(problem)).isEqualTo(refused);
        problem.ifPresent(m -> assertThat(m).startsWith("artifact destination path \"" + path
                + "\" escapes alloc directory"));
    }
}
