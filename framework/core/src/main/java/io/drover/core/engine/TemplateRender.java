package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.SafeFiles;
import io.drover.core.spec.Template;
import io.drover.core.template.GoTemplate;
import io.drover.core.template.TemplateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Rendering one {@code template} of a task, the first time and on every re-render: its text (inline, or its
 * {@code source} read anew), rendered with the task's env and files inside the allocation, written to its
 * destination with its perms. Every path is checked on every call — a read resolves links and must stay inside the
 * allocation, a write never goes through a link (a task may plant one between two renders) — and every file the
 * render read is reported with its {@link #fingerprint}, what {@link TemplateWatch} polls.
 *
 * <p>Blocking file I/O: call it on the {@link HookPool}, never on the serial executor. Stateless; thread-safe.
 */
final class TemplateRender {
    private TemplateRender() {}

    /** Where a task's templates live: its directory and its allocation's root (both normalized). */
    record Dirs(Path taskDir, Path allocRoot) {}

    /**
     * Renders {@code t}; every file read is put in {@code inputs} (its path as the template named it, resolved
     * against the task directory, with its fingerprint).
     */
    static String render(Template t, Map<String, String> env, Dirs dirs, Instant now, Map<Path, String> inputs)
            throws TemplateException {
        String name = t.source() != null ? t.source() : t.destination();
        GoTemplate.Reader reader = new GoTemplate.Reader() {
            @Override
            public String env(String n) {
                return env.get(n);
            }

            @Override
            public String file(String path) throws TemplateException {
                return read(dirs, path, inputs);
            }
        };
        String text = t.data() != null ? t.data() : read(dirs, t.source(), inputs);
        return GoTemplate.parse(name, text, t.leftDelimiter(), t.rightDelimiter())
                .render(reader, now, t.errorOnMissingKey());
    }

    /** Writes a rendered template to its destination, never through a link, with its perms. */
    static void write(Template t, Dirs dirs, String rendered) throws ArtifactException, IOException {
        Path dest = SafeFiles.inside(dirs.taskDir(), t.destination(), "template destination");
        SafeFiles.mkdirs(dirs.taskDir(), dest.getParent());
        SafeFiles.clearFile(dirs.taskDir(), dest);
        Files.writeString(dest, rendered, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        Files.setPosixFilePermissions(dest, permissions(t.perms()));
    }

    /** The env of an {@code env = true} template's output. */
    static Map<String, String> env(Template t, String rendered) throws TemplateException {
        String name = t.source() != null ? t.source() : t.destination();
        return t.env() ? EnvFile.parse(rendered, name) : new LinkedHashMap<>();
    }

    /**
     * What a poll compares: the file's type, size, modification time and identity, not following a link (a file
     * replaced by a link changes it), or "missing".
     */
    static String fingerprint(Path p) {
        try {
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            return (a.isSymbolicLink() ? "link " : a.isDirectory() ? "dir " : "file ") + a.size() + " "
                    + a.lastModifiedTime().toInstant() + " " + a.fileKey();
        } catch (IOException | RuntimeException e) {
            return "missing";
        }
    }

    /** A file a template reads: relative to the task directory, and inside the allocation once links resolve. */
    private static String read(Dirs dirs, String path, Map<Path, String> inputs) throws TemplateException {
        Path p = path.startsWith("/") ? Path.of(path).normalize() : dirs.taskDir().resolve(path).normalize();
        inputs.put(p, fingerprint(p));
        try {
            Path real = p.toRealPath();
            if (!real.startsWith(dirs.allocRoot().toRealPath())) {
                throw new TemplateException("file \"" + path + "\" is outside the allocation directory");
            }
            long size = Files.size(real);
            if (size > 16 << 20) {
                throw new TemplateException("file \"" + path + "\" is larger than 16 MiB");
            }
            return Files.readString(real, StandardCharsets.UTF_8);
        } catch (java.nio.file.NoSuchFileException e) {
            throw new TemplateException("file \"" + path + "\" does not exist");
        } catch (IOException | java.io.UncheckedIOException e) {
            throw new TemplateException("file \"" + path + "\" cannot be read: " + e.getMessage());
        }
    }

    private static Set<PosixFilePermission> permissions(int mode) {
        Set<PosixFilePermission> p = EnumSet.noneOf(PosixFilePermission.class);
        PosixFilePermission[] all = PosixFilePermission.values();
        for (int i = 0; i < 9; i++) {
            if ((mode & (0400 >> i)) != 0) {
                p.add(all[i]);
            }
        }
        return p;
    }
}
