package io.drover.core.driver;

import io.drover.driver.api.TaskDriver;
import java.io.IOException;
import java.net.URL;
import java.net.URLClassLoader;
import java.nio.charset.StandardCharsets;
import java.util.Collections;
import java.util.HashSet;
import java.util.Set;

/**
 * The extension class names a plugin JAR lists itself, in {@code META-INF/extensions.idx} (PF4J's annotation
 * processor) or {@code META-INF/services/io.drover.driver.api.TaskDriver}. PF4J looks the index up in the
 * plugin and then in the application class loader, so a JAR without its own index would otherwise inherit the
 * host classpath's. Pure apart from reading the JAR.
 */
final class OwnExtensionIndex {
    private static final String[] RESOURCES = {
        "META-INF/extensions.idx", "META-INF/services/" + TaskDriver.class.getName()};

    private OwnExtensionIndex() {}

    /** The names listed by the plugin's own JAR; empty when the loader is not a URLClassLoader. */
    static Set<String> of(ClassLoader pluginLoader) {
        if (!(pluginLoader instanceof URLClassLoader own)) {
            return Set.of();
        }
        Set<String> names = new HashSet<>();
        for (String resource : RESOURCES) {
            try {
                for (URL url : Collections.list(own.findResources(resource))) {
                    read(url, names);
                }
            } catch (IOException e) {
                // an unreadable index lists nothing
            }
        }
        return names;
    }

    private static void read(URL url, Set<String> names) throws IOException {
        var connection = url.openConnection();
        connection.setUseCaches(false); // a cached JarFile would keep the plugin JAR open after unload
        try (var in = connection.getInputStream()) {
            // PluginJarCheck refused a JAR whose index inflates past the limit; read with it all the same
            String text = new String(in.readNBytes(JarBounds.MAX_TEXT_BYTES), StandardCharsets.UTF_8);
            for (String line : text.split("\\R")) {
                int comment = line.indexOf('#');
                String name = (comment >= 0 ? line.substring(0, comment) : line).strip();
                if (!name.isEmpty()) {
                    names.add(name);
                }
            }
        }
    }
}
