package io.drover.core.testing;

import io.drover.driver.api.TaskDriver;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.io.UncheckedIOException;
import java.net.URISyntaxException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.jar.Attributes;
import java.util.jar.JarEntry;
import java.util.jar.JarOutputStream;
import java.util.jar.Manifest;
import java.util.stream.Stream;

/**
 * Builds a real PF4J plugin JAR for tests: a MANIFEST with Plugin-* entries, every class of one package copied
 * from the test classpath ({@link #classesOf}), and a hand-written {@code META-INF/extensions.idx} (what PF4J's
 * LegacyExtensionFinder reads: one class name per line). Shared through core's test-jar (core's and the agent's
 * plugin-loading tests).
 */
public final class PluginJar {
    private final Map<String, String> manifest = new LinkedHashMap<>();
    private final List<String> extensions = new ArrayList<>();
    private boolean withManifest = true;
    private boolean bundleApi;
    private Class<?> packageOf;

    public static PluginJar plugin(String id) {
        PluginJar jar = new PluginJar();
        jar.manifest.put("Plugin-Id", id);
        jar.manifest.put("Plugin-Version", "1.2.3");
        jar.manifest.put("Plugin-Provider", "Test Inc.");
        jar.manifest.put("Plugin-Requires", ">=0.1.0");
        return jar;
    }

    /** Packs every class of {@code anchor}'s package (its directory on the test classpath). */
    public PluginJar classesOf(Class<?> anchor) {
        packageOf = anchor;
        return this;
    }

    public PluginJar extension(Class<?> type) {
        extensions.add(type.getName());
        return this;
    }

    public PluginJar attribute(String name, String value) {
        manifest.put(name, value);
        return this;
    }

    public PluginJar withoutAttribute(String name) {
        manifest.remove(name);
        return this;
    }

    /** Also packs the driver API's TaskDriver class: the classic mistake of a plugin built without 'provided'. */
    public PluginJar bundlingTheApi() {
        bundleApi = true;
        return this;
    }

    public PluginJar withoutManifest() {
        withManifest = false;
        return this;
    }

    public Path writeTo(Path file) {
        try (OutputStream out = Files.newOutputStream(file)) {
            JarOutputStream jar;
            if (withManifest) {
                Manifest mf = new Manifest();
                mf.getMainAttributes().put(Attributes.Name.MANIFEST_VERSION, "1.0");
                manifest.forEach((k, v) -> mf.getMainAttributes().putValue(k, v));
                jar = new JarOutputStream(out, mf);
            } else {
                jar = new JarOutputStream(out);
            }
            try (jar) {
                if (!extensions.isEmpty()) {
                    jar.putNextEntry(new JarEntry("META-INF/extensions.idx"));
                    jar.write((String.join("\n", extensions) + "\n").getBytes(StandardCharsets.UTF_8));
                    jar.closeEntry();
                }
                if (packageOf != null) {
                    copyPackage(packageOf, jar);
                }
                if (bundleApi) {
                    String entry = TaskDriver.class.getName().replace('.', '/') + ".class";
                    try (InputStream in = TaskDriver.class.getClassLoader().getResourceAsStream(entry)) {
                        jar.putNextEntry(new JarEntry(entry));
                        jar.write(in.readAllBytes());
                        jar.closeEntry();
                    }
                }
            }
            return file;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static void copyPackage(Class<?> anchor, JarOutputStream jar) throws IOException {
        String pkg = anchor.getPackageName().replace('.', '/');
        Path dir;
        try {
            dir = Path.of(anchor.getResource(anchor.getSimpleName() + ".class").toURI()).getParent();
        } catch (URISyntaxException e) {
            throw new IOException(e);
        }
        try (Stream<Path> files = Files.list(dir)) {
            for (Path c : files.filter(p -> p.toString().endsWith(".class")).sorted().toList()) {
                jar.putNextEntry(new JarEntry(pkg + "/" + c.getFileName()));
                jar.write(Files.readAllBytes(c));
                jar.closeEntry();
            }
        }
    }
}
