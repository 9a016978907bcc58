package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.artifact.ClientPath;
import io.drover.core.spec.Template;
import io.drover.core.template.TemplateException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Instant;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Issue 16, part 2: a FIFO nobody writes (a task can make one in {@code local/} or {@code alloc/} between two
 * renders) as a template's {@code source} or {@code file} would block the render's open(2) for ever, holding one of
 * the four hook threads beyond any stop (an interrupt does not end an open). Only a regular file is read: the
 * render fails at once with one line. The render runs on a thread of its own here, so a regression fails the test
 * at the timeout instead of hanging the build.
 */
class TemplateFifoTest {
    @TempDir
    Path root;
    private TemplateRender.Dirs dirs;
    private Path local;

    @BeforeEach
    void layOut() throws Exception {
        Path taskDir = Files.createDirectories(root.resolve("alloc1").resolve("t"));
        Path shared = Files.createDirectories(root.resolve("alloc1").resolve("alloc"));
        local = Files.createDirectories(taskDir.resolve("local"));
        dirs = new TemplateRender.Dirs(new ClientPath(taskDir, shared), Map.of());
    }

    private static Template template(String data, String source) {
        return new Template(data, source, "local/out", false, 0644, "noop", null, java.time.Duration.ZERO, "{{", "}}",
                false, null, null, null, null, false, null);
    }

    private void mkfifo(Path p) throws Exception {
        Process mk = new ProcessBuilder("mkfifo", p.toString()).start();
        assertThat(mk.waitFor(10, TimeUnit.SECONDS)).isTrue();
        assertThat(mk.exitValue()).isZero();
    }

    /** The render's failure message, on a thread of its own, within 10 s. */
    private String failure(Template t) throws Exception {
        CompletableFuture<String> f = CompletableFuture.supplyAsync(() -> {
            try {
                TemplateRender.render(t, Map.of(), dirs, Instant.EPOCH, new LinkedHashMap<>(), new LinkedHashMap<>());
                return "rendered";
            } catch (TemplateException e) {
                return e.getMessage();
            }
        }, r -> {
            Thread th = new Thread(r, "fifo-render");
            th.setDaemon(true);
            th.start();
        });
        try {
            return f.get(10, TimeUnit.SECONDS);
        } catch (ExecutionException e) {
            throw new AssertionError(e.getCause());
        }
    }

    @Test
    void aFifoSourceFailsTheRenderAtOnce() throws Exception {
        mkfifo(local.resolve("in.tpl"));
        assertThat(failure(template(null, "local/in.tpl"))).isEqualTo("file \"local/in.tpl\" is not a regular file "
                + "(a FIFO, socket or device); only regular files are read");
    }

    @Test
    void aFifoReadWithFileFailsTheRenderAtOnce() throws Exception {
        mkfifo(dirs.paths().sharedDir().resolve("f"));
        assertThat(failure(template("x={{ file \"../alloc/f\" }}", null)))
                .contains("file \"../alloc/f\" is not a regular file (a FIFO, socket or device)");
    }

    @Test
    void aDeviceOrAFolderIsNotReadEither() throws Exception {
        Files.createSymbolicLink(local.resolve("zero"), Path.of("/dev/zero")); // a link: refused before any open
        assertThat(failure(template("{{ file \"local/zero\" }}", null))).contains("local/zero").contains("link");
        Files.createDirectories(local.resolve("d"));
        assertThat(failure(template("{{ file \"local/d\" }}", null)))
                .contains("file \"local/d\" is not a regular file (a folder)");
        // a regular file still renders
        Files.writeString(local.resolve("ok"), "fine");
        CompletableFuture<String> ok = CompletableFuture.supplyAsync(() -> {
            try {
                return TemplateRender.render(template("{{ file \"local/ok\" }}", null), Map.of(), dirs, Instant.EPOCH,
                        new LinkedHashMap<>(), new LinkedHashMap<>());
            } catch (TemplateException e) {
                return e.getMessage();
            }
        });
        assertThat(ok.get(10, TimeUnit.SECONDS)).isEqualTo("fine");
    }
}
