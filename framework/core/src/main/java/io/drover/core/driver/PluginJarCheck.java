package io.drover.core.driver;

import io.drover.core.DroverVersion;
import io.drover.core.fs.FileTrust;
import io.drover.driver.api.TaskDriver;
import java.io.ByteArrayInputStream;
import java.io.IOException;
import java.nio.file.Path;
import java.util.Optional;
import java.util.jar.Attributes;
import java.util.jar.JarFile;
import java.util.jar.Manifest;
import java.util.zip.ZipFile;
import org.pf4j.DefaultVersionManager;

/**
 * Checks, before PF4J sees it, that a file is a JAR the agent may trust and read, and whose MANIFEST names a
 * plugin, so the user gets a precise reason instead of PF4J's exceptions (an NPE for a JAR without manifest)
 * or an OutOfMemoryError (a zip bomb). Pure apart from reading the file.
 */
final class PluginJarCheck {
    private PluginJarCheck() {}

    /** Entries the loader reads itself (PF4J and {@link OwnExtensionIndex}), read here with a limit first. */
    static final String[] TEXT_ENTRIES = {JarFile.MANIFEST_NAME, "META-INF/extensions.idx",
        "META-INF/services/" + TaskDriver.class.getName()};

    /**
     * Why {@code jar} cannot be a plugin, or empty when it looks like one: owned or writable by another user than
     * the agent's or root ({@link FileTrust}), out of {@link JarBounds}, or without a plugin MANIFEST.
     */
    static Optional<String> problem(Path jar) {
        Optional<String> untrusted = FileTrust.problem(jar, FileTrust.Owners.AGENT_OR_ROOT);
        if (untrusted.isPresent()) {
            return Optional.of(untrusted.get() + ": another user could change the code the agent would run");
        }
        Manifest manifest;
        try (ZipFile file = new ZipFile(jar.toFile())) {
            Optional<String> bounds = JarBounds.problem(file);
            if (bounds.isPresent()) {
                return Optional.of("too large to load: " + bounds.get());
            }
            Optional<byte[]> mf = Optional.empty();
            for (String entry : TEXT_ENTRIES) {
                Optional<byte[]> bytes = JarBounds.readText(file, entry);
                if (entry.equals(JarFile.MANIFEST_NAME)) {
                    mf = bytes;
                }
            }
            manifest = mf.isEmpty() ? null : new Manifest(new ByteArrayInputStream(mf.get()));
        } catch (JarBounds.TooLarge e) {
            return Optional.of("too large to load: " + e.getMessage());
        } catch (IOException | SecurityException | IllegalArgumentException e) {
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
