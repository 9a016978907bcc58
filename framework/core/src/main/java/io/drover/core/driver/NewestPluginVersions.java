package io.drover.core.driver;

import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.jar.JarFile;
import org.pf4j.DefaultVersionManager;
import org.pf4j.VersionManager;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Of several JARs in a plugin_dir with one {@code Plugin-Id}, keeps the one with the highest {@code Plugin-Version}
 * (SemVer, PF4J's comparison; a tie is left to loading, which keeps the first by file name and names the other as
 * a duplicate) and names the older ones, so that dropping a new
 * version beside the old one upgrades instead of failing on a duplicate id. JARs whose MANIFEST cannot be read are
 * kept: loading them reports why. Runs on the loading thread; reads each JAR's MANIFEST once.
 */
final class NewestPluginVersions {
    private static final Logger LOG = LoggerFactory.getLogger(NewestPluginVersions.class);
    private static final VersionManager VERSIONS = new DefaultVersionManager();

    /** The JARs to load, in the given order, and one line per JAR left out. */
    record Choice(List<Path> jars, Map<Path, String> ignored) {}

    private record Manifest(String id, String version) {}

    private NewestPluginVersions() {}

    /** @param jars the candidates that passed the trust check, sorted by file name */
    static Choice choose(List<Path> jars) {
        Map<String, Path> newest = new LinkedHashMap<>();
        Map<Path, Manifest> manifests = new LinkedHashMap<>();
        for (Path jar : jars) {
            Optional<Manifest> m = manifest(jar);
            if (m.isEmpty()) {
                continue;
            }
            manifests.put(jar, m.get());
            Path best = newest.get(m.get().id());
            if (best == null || newer(m.get().version(), manifests.get(best).version())) {
                newest.put(m.get().id(), jar);
            }
        }
        List<Path> kept = new ArrayList<>();
        Map<Path, String> ignored = new LinkedHashMap<>();
        for (Path jar : jars) {
            Manifest m = manifests.get(jar);
            Path winner = m == null ? jar : newest.get(m.id());
            if (winner.equals(jar) || !newer(manifests.get(winner).version(), m.version())) {
                kept.add(jar); // the newest, or a tie: loading reports the duplicate id
            } else {
                Manifest w = manifests.get(winner);
                String line = "plugin \"" + m.id() + "\" " + m.version() + " is older than " + w.version() + " in "
                        + winner.getFileName() + ", which loads instead";
                LOG.info("{}: {}", jar, line);
                ignored.put(jar, line);
            }
        }
        return new Choice(kept, ignored);
    }

    private static boolean newer(String version, String than) {
        try {
            return VERSIONS.compareVersions(version, than) > 0;
        } catch (RuntimeException e) {
            return false; // not SemVer: the first by file name stays
        }
    }

    private static Optional<Manifest> manifest(Path jar) {
        try (JarFile file = new JarFile(jar.toFile())) {
            var attributes = file.getManifest().getMainAttributes();
            String id = attributes.getValue("Plugin-Id");
            String version = attributes.getValue("Plugin-Version");
            if (id == null || id.isBlank() || version == null || version.isBlank()) {
                return Optional.empty();
            }
            return Optional.of(new Manifest(id.trim(), version.trim()));
        } catch (java.io.IOException | RuntimeException e) {
            return Optional.empty();
        }
    }
}
