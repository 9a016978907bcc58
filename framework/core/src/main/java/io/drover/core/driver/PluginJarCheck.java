package io.drover.core.driver;

import io.drover.core.DroverVersion;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import org.pf4j.DefaultVersionManager;

/**
 * Checks, before PF4J sees it, that a file is a JAR whose MANIFEST names a plugin, so the user gets a precise
 * reason instead of PF4J's exceptions (an NPE for a JAR without manifest). Pure apart from reading the file.
 */
final class PluginJarCheck {
    private PluginJarCheck() {}

    /** Why {@code jar} cannot be a plugin, or empty when it looks like one. */
    static Optional<String> problem(Path jar) {
        Manifest manifest;
        try (JarFile file = new JarFile(jar.toFile())) {
            manifest = file.getManifest();
        } catch (IOException | SecurityException e) {
            String why = e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
            return Optional.of("not a JAR file (" + why + ")");
        }
        if (manifest == null) {
            return Optional.of("no META-INF/MANIFEST.MF, so no Plugin-Id: not a plugin JAR");
        }
        Attributes main = manifest.getMainAttributes();
        if (blank(main.getValue("Plugin-Id"))) {
            return Optional.of("MANIFEST.MF has no Plugin-Id: not a plugin JAR");
        }
        if (blank(main.getValue("Plugin-Version"))) {
            return Optional.of("MANIFEST.MF has no Plugin-Version");
        }
        String requires = main.getValue("Plugin-Requires");
        if (!blank(requires)) {
            try {
                new DefaultVersionManager().checkVersionConstraint(DroverVersion.VERSION, requires.trim());
            } catch (RuntimeException e) {
                return Optional.of("Plugin-Requires \"" + requires.trim() + "\" is not a version range like \">=0.1.0\"");
            }
        }
        return Optional.empty();
    }

    private static boolean blank(String s) {
        return s == null || s.isBlank();
    }
}
