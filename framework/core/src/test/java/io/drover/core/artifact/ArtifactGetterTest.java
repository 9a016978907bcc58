package io.drover.core.artifact;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.sun.net.httpserver.HttpServer;
import io.drover.core.spec.Artifact;
import io.drover.core.spec.ArtifactMode;
import java.io.IOException;
import java.net.InetAddress;
import java.net.InetSocketAddress;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.security.MessageDigest;
import java.util.HexFormat;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Real files, a real HTTP server on loopback, a real git repository: what each source and archive does. */
class ArtifactGetterTest {
    @TempDir
    Path tmp;

    private Path taskDir;
    private Path src;
    private HttpServer server;
    private final Map<String, byte[]> served = new ConcurrentHashMap<>();
    private final Map<String, String> seenHeaders = new ConcurrentHashMap<>();
    private ExecutorService http;
    private ArtifactGetter getter;

    @BeforeEach
    void setUp() throws IOException {
        // world-readable sources only: the temp dir is 0700 by default
        Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
        taskDir = Files.createDirectories(tmp.resolve("alloc/task"));
        Files.createDirectories(taskDir.resolve("local"));
        src = Files.createDirectories(tmp.resolve("src"));
        server = HttpServer.create(new InetSocketAddress(InetAddress.getLoopbackAddress(), 0), 0);
        server.createContext("/", ex -> {
            String path = ex.getRequestURI().getPath();
            String auth = ex.getRequestHeaders().getFirst("X-Token");
            if (auth != null) {
                seenHeaders.put(path, auth);
            }
            byte[] body = served.get(path);
            if (body == null) {
                ex.sendResponseHeaders(404, -1);
            } else {
                ex.sendResponseHeaders(200, body.length);
                ex.getResponseBody().write(body);
            }
            ex.close();
        });
        server.start();
        http = Executors.newFixedThreadPool(1);
        getter = new ArtifactGetter(new FetchLimits(1 << 20, 100, java.time.Duration.ofSeconds(30)),
                ArtifactGetter.httpClient(http));
    }

    @AfterEach
    void tearDown() {
        server.stop(0);
        http.shutdownNow();
    }

    private String url(String path) {
        return "http://127.0.0.1:" + server.getAddress().getPort() + path;
    }

    private static Artifact artifact(String source, String dest, ArtifactMode mode, Map<String, String> options) {
        return new Artifact(source, dest, mode, options, Map.of());
    }

    private void fetch(String source, String dest, Map<String, String> options) throws Exception {
        getter.fetch(artifact(source, dest, ArtifactMode.ANY, options), source, taskDir);
    }

    private Path write(String name, String content) throws IOException {
        Path p = src.resolve(name);
        Files.writeString(p, content);
        Files.setPosixFilePermissions(p, PosixFilePermissions.fromString("rw-r--r--"));
        return p;
    }

    private static String hash(String algo, byte[] data) throws Exception {
        return HexFormat.of().formatHex(MessageDigest.getInstance(algo).digest(data));
    }

    @Test
    void aLocalFileAndAFileUrlLandInTheDestination() throws Exception {
        Path f = write("app.conf", "port=1");
        fetch(f.toString(), "local/", Map.of());
        assertThat(taskDir.resolve("local/app.conf")).hasContent("port=1");
        fetch(f.toUri().toString(), "local/conf", Map.of());
        assertThat(taskDir.resolve("local/conf/app.conf")).hasContent("port=1");
        assertThat(Files.list(taskDir).map(p -> p.getFileName().toString()))
                .as("the scratch directory is gone").containsExactly("local");
    }

    @Test
    void aLocalDirectoryIsCopied() throws Exception {
        Path dir = Files.createDirectories(src.resolve("site"));
        Files.setPosixFilePermissions(dir, PosixFilePermissions.fromString("rwxr-xr-x"));
        write("site/index.html", "<p>hi</p>");
        fetch(dir.toString(), "local/www", Map.of());
        assertThat(taskDir.resolve("local/www/index.html")).hasContent("<p>hi</p>");
    }

    @Test
    void aSourceNotReadableByEveryUserIsRefused() throws Exception {
        Path secret = write("secret", "s");
        Files.setPosixFilePermissions(secret, PosixFilePermissions.fromString("rw-------"));
        assertThatThrownBy(() -> fetch(secret.toString(), "local/", Map.of()))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("not readable by every user");
        assertThat(taskDir.resolve("local/secret")).doesNotExist();
    }

    @Test
    void httpTarGzIsUnpackedWithModesAndHeadersSent() throws Exception {
        served.put("/app.tar.gz", Archives.tar().file("bin/run.sh", "#!/bin/sh\necho hi\n", 04755)
                .file("README", "read me", 0644).gzipped());
        Artifact a = new Artifact(url("/app.tar.gz"), "local/app", ArtifactMode.ANY, Map.of(),
                Map.of("X-Token", "t0k"));
        getter.fetch(a, a.source(), taskDir);
        Path run = taskDir.resolve("local/app/bin/run.sh");
        assertThat(run).hasContent("#!/bin/sh\necho hi\n");
        assertThat(PosixFilePermissions.toString(Files.getPosixFilePermissions(run)))
                .as("exec bit kept, setuid dropped").isEqualTo("rwxr-xr-x");
        assertThat(taskDir.resolve("local/app/README")).hasContent("read me");
        assertThat(seenHeaders).containsEntry("/app.tar.gz", "t0k");
    }

    @Test
    void zipTarAndGzAreUnpackedAndArchiveFalseKeepsTheFile() throws Exception {
        served.put("/a.zip", Archives.zip("x/run", "zipped"));
        served.put("/b.tar", Archives.tar().file("t.txt", "tarred", 0644).bytes());
        served.put("/c.jar.gz", Archives.gzip("jar".getBytes(StandardCharsets.UTF_8)));
        fetch(url("/a.zip"), "local/z", Map.of());
        fetch(url("/b.tar"), "local/t", Map.of());
        fetch(url("/c.jar.gz"), "local/g", Map.of());
        fetch(url("/b.tar?archive=false"), "local/raw", Map.of());
        assertThat(taskDir.resolve("local/z/x/run")).hasContent("zipped");
        assertThat(taskDir.resolve("local/t/t.txt")).hasContent("tarred");
        assertThat(taskDir.resolve("local/g/c.jar")).hasContent("jar");
        assertThat(taskDir.resolve("local/raw/b.tar")).isRegularFile();
        fetch(url("/b.tar"), "local/raw2", Map.of("archive", "false"));
        assertThat(taskDir.resolve("local/raw2/b.tar")).isRegularFile();
    }

    @Test
    void checksumsOfEveryTypeAreChecked() throws Exception {
        byte[] body = "payload".getBytes(StandardCharsets.UTF_8);
        served.put("/p.bin", body);
        for (String[] t : new String[][] {{"md5", "MD5"}, {"sha1", "SHA-1"}, {"sha256", "SHA-256"},
            {"sha512", "SHA-512"}}) {
            fetch(url("/p.bin"), "local/" + t[0], Map.of("checksum", t[0] + ":" + hash(t[1], body)));
            assertThat(taskDir.resolve("local/" + t[0] + "/p.bin")).hasContent("payload");
        }
        String wrong = "sha256:" + "0".repeat(64);
        assertThatThrownBy(() -> fetch(url("/p.bin"), "local/bad", Map.of("checksum", wrong)))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("checksums did not match");
        assertThat(taskDir.resolve("local/bad")).doesNotExist();
    }

    @Test
    void modeFilePlacesTheFileAtTheDestinationAndModeDirWantsAnArchive() throws Exception {
        served.put("/bin", "x".getBytes(StandardCharsets.UTF_8));
        getter.fetch(artifact(url("/bin"), "local/tool", ArtifactMode.FILE, Map.of()), url("/bin"), taskDir);
        assertThat(taskDir.resolve("local/tool")).isRegularFile().hasContent("x");
        assertThatThrownBy(() -> getter.fetch(artifact(url("/bin"), "local/d", ArtifactMode.DIR, Map.of()),
                url("/bin"), taskDir)).hasMessageContaining("not an archive");
    }

    @Test
    void aMissingUrlIsOneLine() {
        assertThatThrownBy(() -> fetch(url("/nope"), "local/", Map.of()))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("bad response code: 404");
    }

    @Test
    void archiveEntriesThatEscapeAreRefused() throws Exception {
        served.put("/dotdot.tar", Archives.tar().file("../../evil", "x", 0644).bytes());
        served.put("/abs.tar", Archives.tar().file("/tmp/evil", "x", 0644).bytes());
        served.put("/link.tar", Archives.tar().symlink("out", "../../..").bytes());
        served.put("/abslink.tar", Archives.tar().symlink("out", "/etc").bytes());
        served.put("/hard.tar", Archives.tar().hardlink("h", "/etc/passwd").bytes());
        served.put("/through.tar", Archives.tar().symlink("in", "sub").file("in/x", "x", 0644).bytes());
        for (String name : List.of("dotdot", "abs", "link", "abslink", "hard")) {
            assertThatThrownBy(() -> fetch(url("/" + name + ".tar"), "local/" + name, Map.of()))
                    .as(name).isInstanceOf(ArtifactException.class).hasMessageContaining("refused");
        }
        assertThatThrownBy(() -> fetch(url("/through.tar"), "local/through", Map.of()))
                .as("no write through a link, even one the archive made").isInstanceOf(ArtifactException.class)
                .hasMessageContaining("symbolic link");
        assertThat(tmp.resolve("evil")).doesNotExist();
        assertThat(Path.of("/tmp/evil")).doesNotExist();
    }

    @Test
    void aLinkPlantedInTheDestinationIsNotFollowed() throws Exception {
        Path outside = Files.createDirectories(tmp.resolve("outside"));
        Files.createSymbolicLink(taskDir.resolve("local/planted"), outside);
        served.put("/f.txt", "x".getBytes(StandardCharsets.UTF_8));
        assertThatThrownBy(() -> fetch(url("/f.txt"), "local/planted", Map.of()))
                .isInstanceOf(ArtifactException.class).hasMessageContaining("symbolic link");
        Files.createSymbolicLink(taskDir.resolve("local/f.txt"), outside.resolve("victim"));
        fetch(url("/f.txt"), "local/", Map.of());
        assertThat(outside.resolve("victim")).as("the planted file link is replaced, not written through")
                .doesNotExist();
        assertThat(taskDir.resolve("local/f.txt")).isRegularFile().hasContent("x");
    }

    @Test
    void aDestinationOutsideTheTaskDirIsRefused() {
        assertThatThrownBy(() -> fetch(url("/x"), "../other", Map.of())).hasMessageContaining("leaves");
    }

    @Test
    void theSizeBoundStopsADownloadAndAnArchiveBomb() throws Exception {
        served.put("/big", new byte[(1 << 20) + 1]);
        assertThatThrownBy(() -> fetch(url("/big"), "local/", Map.of())).hasMessageContaining("larger than");
        served.put("/bomb.tar.gz", Archives.tar().file("zeros", "0".repeat((1 << 20) + 10), 0644).gzipped());
        assertThatThrownBy(() -> fetch(url("/bomb.tar.gz"), "local/b", Map.of())).hasMessageContaining("larger than");
    }

    @Test
    void gitClonesALocalRepository() throws Exception {
        Path repo = Files.createDirectories(src.resolve("repo"));
        git(repo, "init", "-q", "-b", "main");
        Files.writeString(repo.resolve("hello.txt"), "from git");
        git(repo, "add", "hello.txt");
        git(repo, "-c", "user.email=t@t", "-c", "user.name=t", "commit", "-q", "-m", "one");
        try (var walk = Files.walk(repo)) {
            for (Path p : (Iterable<Path>) walk::iterator) {
                Files.setPosixFilePermissions(p, PosixFilePermissions.fromString(
                        Files.isDirectory(p) ? "rwxr-xr-x" : "rw-r--r--"));
            }
        }
        fetch("git::" + repo, "local/repo", Map.of("ref", "main"));
        assertThat(taskDir.resolve("local/repo/hello.txt")).hasContent("from git");
    }

    private static void git(Path dir, String... args) throws Exception {
        List<String> cmd = new java.util.ArrayList<>(List.of("git", "-C", dir.toString()));
        cmd.addAll(List.of(args));
        Process p = new ProcessBuilder(cmd).redirectErrorStream(true).start();
        String out = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        assertThat(p.waitFor()).as(out).isZero();
    }
}
