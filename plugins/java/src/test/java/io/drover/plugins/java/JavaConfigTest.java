package io.drover.plugins.java;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.driver.api.ConfigProblem;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.Arguments;
import org.junit.jupiter.params.provider.MethodSource;

/** The config block: one problem per bad or unknown key, and the command line it makes. Pure. */
class JavaConfigTest {
    private static final Path TASK_DIR = Path.of("/data/alloc/a1/web");

    static Stream<Arguments> invalid() {
        return Stream.of(
                Arguments.of(Map.of(), "jar_path", "jar_path or class is required"),
                Arguments.of(Map.of("class_path", "lib"), "jar_path", "jar_path or class is required"),
                Arguments.of(Map.of("jar_path", "a.jar", "class", "A"), "class", "cannot be used with jar_path"),
                Arguments.of(Map.of("jar_path", "a.jar", "class_path", "lib"), "class_path",
                        "cannot be used with jar_path"),
                Arguments.of(Map.of("jar_path", ""), "jar_path", "must be a non-empty string"),
                Arguments.of(Map.of("jar_path", " "), "jar_path", "must be a non-empty string"),
                Arguments.of(Map.of("class", List.of("A")), "class", "must be a string, found a list"),
                Arguments.of(Map.of("class", "A", "class_path", List.of("lib", 2L)), "class_path",
                        "must be a non-empty string"),
                Arguments.of(Map.of("class", "A", "class_path", List.of()), "class_path", "or a list"),
                Arguments.of(Map.of("class", "A", "jvm_options", "-Xmx1g"), "jvm_options", "must be a list of strings"),
                Arguments.of(Map.of("class", "A", "args", List.of(List.of())), "args[0]", "must be a string, found a list"),
                Arguments.of(Map.of("class", "A", "java_home", "jdk17"), "java_home", "must be an absolute path"),
                Arguments.of(Map.of("class", "A", "java_home", true), "java_home", "must be an absolute path"),
                Arguments.of(Map.of("class", "A", "command", "x"), "command",
                        "unknown key for the java driver (allowed: jar_path, class, class_path, jvm_options, args,"
                                + " java_home, user, pid_mode, ipc_mode)"),
                Arguments.of(Map.of("class", "A", "class_path", "${DROVER_HOME}/lib"), "class_path",
                        "${DROVER_HOME} is unknown"));
    }

    @ParameterizedTest
    @MethodSource("invalid")
    void eachBadOrUnknownKeyIsOneProblem(Map<String, Object> config, String key, String message) {
        List<ConfigProblem> problems = JavaConfig.validate(config, null);

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.key()).isEqualTo(key);
            assertThat(p.message()).contains(message);
        });
    }

    @Test
    void problemsAreSortedByKeyOnePerKey() {
        List<ConfigProblem> problems = JavaConfig.validate(Map.of("zz", 1L, "args", "x", "class", "A",
                "jvm_options", List.of(List.of())), "/home");

        assertThat(problems).extracting(ConfigProblem::key).containsExactly("args", "jvm_options[0]", "zz");
    }

    @Test
    void aClassRunsWithItsClassPathResolvedAgainstTheTaskDirectory() {
        JavaConfig config = JavaConfig.parse(Map.of("class", "com.example.Main",
                "class_path", List.of("local/app.jar", "/opt/lib/*", "${DROVER_HOME}/sample-jobs/java/classes"),
                "jvm_options", List.of("-Xmx64m"), "args", List.of("a", "b")), "/repo");

        assertThat(config.javaArgs(TASK_DIR, "/repo")).containsExactly("-Xmx64m", "-cp",
                "/data/alloc/a1/web/local/app.jar:/opt/lib/*:/repo/sample-jobs/java/classes", "com.example.Main",
                "a", "b");
    }

    @Test
    void aClassPathStringIsSplitOnColonsAsInNomad() {
        JavaConfig config = JavaConfig.parse(Map.of("class", "Main", "class_path", "local/classes:lib/x.jar"), null);

        assertThat(config.javaArgs(TASK_DIR, null)).containsExactly("-cp",
                "/data/alloc/a1/web/local/classes:/data/alloc/a1/web/lib/x.jar", "Main");
    }

    @Test
    void aClassWithoutClassPathGetsNoCpAndTheJvmLooksInTheWorkDirectory() {
        assertThat(JavaConfig.parse(Map.of("class", "Main"), null).javaArgs(TASK_DIR, null))
                .containsExactly("Main");
    }

    @Test
    void aJarRunsWithMinusJar() {
        JavaConfig config = JavaConfig.parse(Map.of("jar_path", "local/app.jar", "jvm_options", List.of("-Dx=1"),
                "args", List.of("--port", "8080")), null);

        assertThat(config.javaArgs(TASK_DIR, null)).containsExactly("-Dx=1", "-jar", "/data/alloc/a1/web/local/app.jar",
                "--port", "8080");
        assertThat(JavaConfig.parse(Map.of("jar_path", "/opt/app.jar"), null).javaArgs(TASK_DIR, null))
                .containsExactly("-jar", "/opt/app.jar");
    }

    @Test
    void javaHomeDefaultsToTheGivenJdk() {
        assertThat(JavaConfig.parse(Map.of("class", "A"), null).javaHomeOr("/jdk")).isEqualTo(Path.of("/jdk"));
        assertThat(JavaConfig.parse(Map.of("class", "A", "java_home", "/opt/jdk21"), null).javaHomeOr("/jdk"))
                .isEqualTo(Path.of("/opt/jdk21"));
    }
}
