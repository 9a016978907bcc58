package io.drover.core.engine;

import io.drover.core.artifact.ArtifactException;
import io.drover.core.artifact.ClientPath;
import io.drover.core.artifact.SafeFiles;
import io.drover.core.spec.Template;
import io.drover.core.template.GoTemplate;
import io.drover.core.template.NomadQuery;
import io.drover.core.template.TemplateException;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.nio.file.attribute.BasicFileAttributes;
import java.nio.file.attribute.PosixFileAttributeView;
import java.nio.file.attribute.PosixFilePermission;
import java.time.Instant;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.Map;
import java.util.Set;

/**
 * Rendering one {@code template} of a task, the first time and on every re-render: its text (inline, or its
 * {@code source} read anew), rendered with the task's env and files inside the allocation, written to its
 * destination with its perms. Every path lands where {@link ClientPath} says (the task directory or the shared
 * alloc directory) and is checked on every call — neither a read nor a write goes through a link (a task may plant
 * one between two renders) — and every file the render read is reported with its {@link #fingerprint}, what
 * {@link TemplateWatch} polls, as is every read of the service registry.
 *
 * <p>Blocking file I/O: call it on the {@link HookPool}, never on the serial executor. Stateless; thread-safe.
 */
final class TemplateRender {
    private TemplateRender() {}

    /**
     * Where a task's templates live: its directory and the shared alloc directory ({@link ClientPath}), and the
     * run's variables a {@code destination} or {@code source} is interpolated with (host paths for
     * {@code NOMAD_ALLOC_DIR}, {@code NOMAD_TASK_DIR}, {@code NOMAD_SECRETS_DIR}); an immutable copy. And what
     * the templates may read of the service registry ({@link ServiceReads}).
     */
    record Dirs(ClientPath paths, Map<String, String> vars, ServiceReads services) {
        Dirs {
            vars = java.util.Collections.unmodifiableMap(new LinkedHashMap<>(vars));
            services = services == null ? ServiceReads.NONE : services;
        }

        Dirs(ClientPath paths, Map<String, String> vars) {
            this(paths, vars, null);
        }

        Path taskDir() {
            return paths.taskDir();
        }

        /** Where {@code raw} lands, interpolated; empty when it escapes. */
        java.util.Optional<ClientPath.Target> resolve(String raw, ClientPath.Kind kind) {
            return paths.resolve(new Interpolator(vars).apply(raw), kind);
        }
    }

    /**
     * Renders {@code t}; every file read is put in {@code inputs} (its path as the template named it, resolved
     * against the task directory, with its fingerprint), every read of the service registry in {@code reads}
     * (with its {@link ServiceReads#fingerprint}).
     */
    static String render(Template t, Map<String, String> env, Dirs dirs, Instant now, Map<Path, String> inputs,
            Map<NomadQuery, String> reads) throws TemplateException {
        String name = t.source() != null ? t.source() : t.destination();
        GoTemplate.Reader reader = new GoTemplate.Reader() {
            @Override
            public String env(String n) {
                return env.get(n);
            }

            @Override
            public String file(String path) throws TemplateException {
                return read(dirs, path, inputs, false);
            }

            @Override
            public Object nomad(NomadQuery query) throws TemplateException {
                Object answer;
                try {
                    answer = dirs.services().answer(query);
                } catch (TemplateException e) {
                    reads.put(query, "error " + e.getMessage());
                    throw e;
                }
                reads.put(query, String.valueOf(answer));
                return answer;
            }
        };
        String text = t.data() != null ? t.data() : read(dirs, t.source(), inputs, true);
        return GoTemplate.parse(name, text, t.leftDelimiter(), t.rightDelimiter())
                .render(reader, now, t.errorOnMissingKey());
    }

    /** Writes a rendered template to its destination, never through a link, with its perms. */
    static void write(Template t, Dirs dirs, String rendered) throws ArtifactException, IOException {
        ClientPath.Target to = dirs.resolve(t.destination(), ClientPath.Kind.DESTINATION).orElseThrow(
                () -> new ArtifactException(ClientPath.escapes("template destination", t.destination())));
        if (to.relative().isEmpty()) {
            throw new ArtifactException("template destination \"" + t.destination()
                    + "\" is a directory; name a file");
        }
        Path root = to.root();
        Path dest = SafeFiles.inside(root, to.relative(), "template destination");
        SafeFiles.mkdirs(root, dest.getParent());
        SafeFiles.clearFile(root, dest);
        Files.writeString(dest, rendered, StandardCharsets.UTF_8, StandardOpenOption.CREATE_NEW,
                StandardOpenOption.WRITE, LinkOption.NOFOLLOW_LINKS);
        PosixFileAttributeView view = Files.getFileAttributeView(dest, PosixFileAttributeView.class,
                LinkOption.NOFOLLOW_LINKS);
        owner(t, dest);
        view.setPermissions(permissions(t.perms())); // not through a link planted since the write: O_NOFOLLOW
    }

    /**
     * What the template's destination holds now (what a previous agent rendered), or null when it is missing, is
     * not a regular file, or cannot be read: a link on the way or at the end is never followed (a task could plant
     * one), so it reads as "not what we rendered" and the next write replaces it.
     */
    static String current(Template t, Dirs dirs) {
        var to = dirs.resolve(t.destination(), ClientPath.Kind.DESTINATION);
        if (to.isEmpty() || to.get().relative().isEmpty()) {
            return null;
        }
        try {
            Path root = to.get().root();
            Path dest = SafeFiles.inside(root, to.get().relative(), "template destination");
            SafeFiles.checkReadable(root, dest);
            BasicFileAttributes a = Files.readAttributes(dest, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile() || a.size() > 16 << 20) {
                return null;
            }
            try (var in = Files.newByteChannel(dest, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
                return new String(java.nio.channels.Channels.newInputStream(in).readAllBytes(), StandardCharsets.UTF_8);
            }
        } catch (ArtifactException | IOException | RuntimeException e) {
            return null;
        }
    }

    /**
     * {@code uid}/{@code gid}: the rendered file is given to them, as consul-template does for Nomad — by the agent
     * (root), on the file itself, never on what a link planted in its place points to ({@code lchown}). Before the
     * perms are set, since a chown clears the set-id bits.
     */
    private static void owner(Template t, Path dest) throws ArtifactException {
        if (t.uid() == null && t.gid() == null) {
            return;
        }
        try {
            if (t.uid() != null) {
                Files.setAttribute(dest, "unix:uid", t.uid(), LinkOption.NOFOLLOW_LINKS);
            }
            if (t.gid() != null) {
                Files.setAttribute(dest, "unix:gid", t.gid(), LinkOption.NOFOLLOW_LINKS);
            }
        } catch (IOException | UnsupportedOperationException | SecurityException e) {
            throw new ArtifactException("template destination " + t.destination() + ": cannot give it "
                    + (t.uid() != null ? "uid " + t.uid() : "") + (t.uid() != null && t.gid() != null ? " and " : "")
                    + (t.gid() != null ? "gid " + t.gid() : "") + " (the agent must run as root): "
                    + (e.getMessage() == null ? e.toString() : e.getMessage()));
        }
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

    /**
     * A file a template reads ({@code source}, or {@code file "..."}): where {@link ClientPath} says (as a source:
     * an absolute path outside the task and shared alloc directories is an escape), read without following a
     * link on the way or at the end ({@link SafeFiles#checkReadable}, then a no-follow open), checked again at
     * every render.
     */
    private static String read(Dirs dirs, String path, Map<Path, String> inputs, boolean source)
            throws TemplateException {
        ClientPath.Target to = dirs.resolve(path, ClientPath.Kind.SOURCE).orElseThrow(() -> new TemplateException(
                source ? ClientPath.escapes("template source", path)
                        : "file \"" + path + "\" is outside the allocation directory"));
        Path p = to.path();
        inputs.put(p, fingerprint(p));
        try {
            SafeFiles.checkReadable(to.root(), p);
            // a FIFO nobody writes would block the open (a hook thread, for ever: an interrupt does not end an
            // open(2)); a device may never end: only a regular file is read. A swap between this check and the
            // open is a race the task would have to win (NIO has no O_NONBLOCK), docs/jobs.md#template.
            BasicFileAttributes a = Files.readAttributes(p, BasicFileAttributes.class, LinkOption.NOFOLLOW_LINKS);
            if (!a.isRegularFile()) {
                throw new TemplateException("file \"" + path + "\" is not a regular file ("
                        + (a.isDirectory() ? "a folder" : a.isSymbolicLink() ? "a link" : "a FIFO, socket or device")
                        + "); only regular files are read");
            }
            try (var in = Files.newByteChannel(p, Set.of(StandardOpenOption.READ, LinkOption.NOFOLLOW_LINKS))) {
                if (in.size() > 16 << 20) {
                    throw new TemplateException("file \"" + path + "\" is larger than 16 MiB");
                }
                byte[] bytes = java.nio.channels.Channels.newInputStream(in).readAllBytes();
                return new String(bytes, StandardCharsets.UTF_8);
            }
        } catch (ArtifactException e) {
            throw new TemplateException("file \"" + path + "\": " + e.getMessage()
                    + " (a link may lead outside the allocation directory)");
        } catch (java.nio.file.NoSuchFileException e) {
            throw new TemplateException("file \"" + path + "\" does not exist");
        } catch (java.nio.file.FileSystemException e) {
            throw new TemplateException("file \"" + path + "\" cannot be read (a link is not followed: it may lead "
                    + "outside the allocation directory): " + e.getMessage());
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
