package io.drover.plugins.exec;

import static org.assertj.core.api.Assertions.assertThat;

import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The pure parts of {@link TaskEnvFile}, and that writing it never follows a link planted in its place. */
class TaskEnvFileTest {
    @TempDir
    Path dir;

    @Test
    void theRootSideGetsAFixedPathAndDroversOwnVariablesOnly() {
        Map<String, String> task = Map.of("LD_PRELOAD", "/local/evil.so", "LD_LIBRARY_PATH", "/local",
                "PATH", "/local/bin", "GCONV_PATH", "/local", "LIBMOUNT_FSTAB", "/local/fstab", "FOO", "bar",
                "DROVER_RUN_ID", "a/t/1", "DROVER_RUN_DIR", "/data/alloc/a/t", "drover_x", "y");

        assertThat(TaskEnvFile.rootEnv(task)).containsExactly(Map.entry("DROVER_RUN_DIR", "/data/alloc/a/t"),
                Map.entry("DROVER_RUN_ID", "a/t/1"), Map.entry("PATH", "/usr/sbin:/usr/bin:/sbin:/bin"));
    }

    @Test
    void valuesAreSingleQuotedForSh() {
        assertThat(TaskEnvFile.text(Map.of("B", "it's $X\n`y`", "A", "")))
                .isEqualTo("export 'A'=''\nexport 'B'='it'\\''s $X\n`y`'\n");
    }

    @Test
    void namesAShellCannotExportAreListedSorted() {
        assertThat(TaskEnvFile.badNames(Map.of("ok_1", "", "_x", "", "a.b", "", "9x", "", "a-b", "", "", "")))
                .isEqualTo(List.of("", "9x", "a-b", "a.b"));
    }

    @Test
    void aLinkInTheFilesPlaceIsReplacedNotFollowed() throws Exception {
        Path target = dir.resolve("target");
        Files.writeString(target, "precious\n");
        Path taskDir = Files.createDirectories(dir.resolve("task"));
        Files.createSymbolicLink(taskDir.resolve(TaskEnvFile.NAME), target);
        int uid = (Integer) Files.getAttribute(dir, "unix:uid");
        int gid = (Integer) Files.getAttribute(dir, "unix:gid");

        Path file = TaskEnvFile.write(taskDir, Map.of("FOO", "bar"), uid, gid);

        assertThat(Files.readString(target)).isEqualTo("precious\n");
        assertThat(Files.isSymbolicLink(file)).isFalse();
        assertThat(Files.readString(file)).isEqualTo("export 'FOO'='bar'\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(file, LinkOption.NOFOLLOW_LINKS)))
                .isEqualTo("rw-------");
    }
}
