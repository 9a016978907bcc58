package io.drover.core.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Artifact;
import io.drover.core.spec.ArtifactMode;
import java.io.IOException;
import java.net.http.HttpClient;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.stream.Stream;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * Nomad's four real destination forms, resolved by {@link ClientPath} and written through {@link SafeFiles}: a
 * symbolic link a task planted at any component on the way — the root ({@code alloc/} or the task dir), each
 * directory, the file itself — is never followed, for a write (an artifact) and for a read
 * ({@link SafeFiles#checkReadable}, what a template source and {@code file} use).
 */
class ClientPathLinksTest {
    @TempDir
    Path tmp;

    private Path task;
    private Path shared;
    private Path outside;
    private Path source;
    private ArtifactGetter getter;

    @BeforeEach
    void setUp() throws IOException {
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        Path alloc = tmp.resolve("alloc/a1");
        task = alloc.resolve("web");
        shared = alloc.resolve("alloc");
        outside = Files.createDirectories(tmp.resolve("outside"));
        source = tmp.resolve("payload.txt");
        Files.writeString(source, "payload");
        Files.setPosixFilePermissions(source, PosixFilePermissions.fromString("rw-r--r--"));
        getter = new ArtifactGetter(new FetchLimits(1 << 20, 100, java.time.Duration.ofSeconds(30)),
                HttpClient.newHttpClient());
    }

    static Stream<String> forms() {
        return Stream.of("${NOMAD_ALLOC_DIR}/data/x", "../alloc/data/x", "/local/etc/x.conf", "/data/storage/f");
    }

    private ClientPath.Target target(String form) {
        String path = form.replace("${NOMAD_ALLOC_DIR}", shared.toString());
        return new ClientPath(task, shared).resolve(path, ClientPath.Kind.DESTINATION).orElseThrow();
    }

    /** A fresh allocation: the task dir with local/ and secrets/, the shared dir with data/. */
    private void fresh() throws IOException {
        for (Path p : List.of(task, shared, outside)) {
            if (Files.exists(p, LinkOption.NOFOLLOW_LINKS)) {
                if (Files.isSymbolicLink(p)) {
                    Files.delete(p);
                } else {
                    deleteTree(p);
                }
            }
        }
        Files.createDirectories(task.resolve("local"));
        Files.createDirectories(task.resolve("secrets"));
        Files.createDirectories(shared.resolve("data"));
        Files.createDirectories(outside);
        Files.writeString(outside.resolve("victim"), "untouched");
    }

    /** Deletes a tree without following a link in it (Files.walk does not follow links). */
    private static void deleteTree(Path dir) throws IOException {
        try (Stream<Path> all = Files.walk(dir)) {
            for (Path p : all.sorted(java.util.Comparator.reverseOrder()).toList()) {
                Files.delete(p);
            }
        }
    }

    /** The components of a target: its root, then each path below it, the last the file itself. */
    private static List<Path> components(ClientPath.Target t) {
        List<Path> out = new ArrayList<>();
        out.add(t.root());
        Path at = t.root();
        for (Path part : Path.of(t.relative())) {
            at = at.resolve(part);
            out.add(at);
        }
        return out;
    }

    private void fetch(ClientPath.Target to) throws Exception {
        Artifact a = new Artifact(source.toString(), "unused", ArtifactMode.FILE, Map.of(), Map.of());
        getter.fetch(a, source.toString(), task, to);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void eachFormLandsInItsRoot(String form) throws Exception {
        fresh();
        ClientPath.Target to = target(form);
        fetch(to);
        assertThat(to.path()).hasContent("payload");
        boolean inShared = form.toLowerCase(java.util.Locale.ROOT).contains("alloc");
        assertThat(to.root()).isEqualTo(inShared ? shared : task);
        SafeFiles.checkReadable(to.root(), to.path());
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void aLinkPlantedAtAnyComponentIsNotFollowed(String form) throws Exception {
        List<Path> parts = components(target(form));
        for (int k = 0; k < parts.size(); k++) {
            fresh();
            ClientPath.Target to = target(form);
            Path at = parts.get(k);
            Files.createDirectories(at.getParent());
            if (Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                deleteTree(at);
            }
            boolean last = k == parts.size() - 1;
            Files.createSymbolicLink(at, last ? outside.resolve("victim") : outside);
            String what = form + " with a link at " + tmp.relativize(at);
            assertThatThrownBy(() -> SafeFiles.checkReadable(to.root(), to.path())).as("read: " + what)
                    .isInstanceOf(ArtifactException.class).hasMessageContaining("symbolic link");
            if (last) {
                fetch(to); // the planted link itself is replaced, never written through
                assertThat(Files.isSymbolicLink(at)).as(what).isFalse();
                assertThat(at).hasContent("payload");
            } else {
                assertThatThrownBy(() -> fetch(to)).as("write: " + what).isInstanceOf(ArtifactException.class)
                        .hasMessageContaining("symbolic link");
            }
            assertThat(outside.resolve("victim")).as(what).hasContent("untouched");
            try (Stream<Path> in = Files.list(outside)) {
                assertThat(in.map(p -> p.getFileName().toString()).toList()).as(what).containsExactly("victim");
            }
        }
    }

    /** A world-readable local git repository with one commit. */
    private Path repository() throws Exception {
        Path repo = tmp.resolve("repo");
        if (Files.isDirectory(repo)) {
            return repo;
        }
        Files.createDirectories(repo);
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("hello.txt"), "from git");
        git(repo, "add", "hello.txt");
        git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "one");
        try (Stream<Path> walk = Files.walk(repo)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        return repo;
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), java.nio.charset.StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }

    private void clone(ClientPath.Target to) throws Exception {
        String src = "git::" + repository();
        Artifact a = new Artifact(src, "unused", ArtifactMode.ANY, Map.of(), Map.of());
        getter.fetch(a, src, task, to);
    }

    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void aGitCloneLandsInEachForm(String form) throws Exception {
        fresh();
        ClientPath.Target to = target(form);
        clone(to);
        assertThat(to.path().resolve("hello.txt")).hasContent("from git");
    }

    /**
     * A git clone checks its destination component by component before git runs, as every other getter: a link
     * planted at the root, at any directory on the way or at the destination itself is refused in one line, and
     * nothing is cloned through it.
     */
    @ParameterizedTest(name = "{0}")
    @MethodSource("forms")
    void aGitCloneRefusesALinkPlantedAtAnyComponent(String form) throws Exception {
        List<Path> parts = components(target(form));
        for (int k = 0; k < parts.size(); k++) {
            fresh();
            ClientPath.Target to = target(form);
            Path at = parts.get(k);
            Files.createDirectories(at.getParent());
            if (Files.isDirectory(at, LinkOption.NOFOLLOW_LINKS)) {
                deleteTree(at);
            }
            Files.createSymbolicLink(at, outside);
            String what = form + " with a link at " + tmp.relativize(at);
            assertThatThrownBy(() -> clone(to)).as(what).isInstanceOf(ArtifactException.class)
                    .hasMessageContaining("symbolic link; refusing to follow it")
                    .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
            try (Stream<Path> in = Files.list(outside)) {
                assertThat(in.map(p -> p.getFileName().toString()).toList()).as(what).containsExactly("victim");
            }
            assertThat(outside.resolve("victim")).as(what).hasContent("untouched");
        }
    }
}
