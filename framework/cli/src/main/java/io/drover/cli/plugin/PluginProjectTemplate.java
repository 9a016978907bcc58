package io.drover.cli.plugin;

import io.drover.core.DroverVersion;
import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;
import java.util.regex.Pattern;

/**
 * The files of a new driver plugin project ({@code drover plugin init}): the templates under
 * {@code io/drover/cli/plugin/template} with the driver's name, class and package filled in. Pure.
 *
 * @param name the driver's name, as job files write it ({@code driver = "sleep"})
 */
record PluginProjectTemplate(String name) {
    /** A driver name: lower case letters, digits and {@code _}, starting with a letter (as mock, raw_exec). */
    static final Pattern NAME = Pattern.compile("[a-z][a-z0-9_]{0,39}");

    PluginProjectTemplate {
        if (!NAME.matcher(name).matches()) {
            throw new IllegalArgumentException("driver name \"" + name + "\" must be lower case letters, digits and"
                    + " _, starting with a letter (at most 40), e.g. sleep or http_probe");
        }
    }

    /** {@code http_probe} → {@code HttpProbeDriver}. */
    String className() {
        StringBuilder sb = new StringBuilder();
        for (String part : name.split("_")) {
            if (!part.isEmpty()) {
                sb.append(part.substring(0, 1).toUpperCase(Locale.ROOT)).append(part.substring(1));
            }
        }
        return sb.append("Driver").toString();
    }

    String packageName() {
        return "org.example.drover." + name.replace("_", "");
    }

    /** {@code http_probe} → {@code http-probe-driver}. */
    String artifact() {
        return name.replace('_', '-') + "-driver";
    }

    /** Relative path → content, in the order they are written. */
    Map<String, String> files() {
        String src = packageName().replace('.', '/');
        Map<String, String> files = new LinkedHashMap<>();
        files.put("pom.xml", fill("pom.xml.tmpl"));
        files.put("src/main/java/" + src + "/" + className() + ".java", fill("Driver.java.tmpl"));
        files.put("src/test/java/" + src + "/" + className() + "TckTest.java", fill("DriverTckTest.java.tmpl"));
        files.put("jobs/" + name + ".hcl", fill("job.hcl.tmpl"));
        files.put("README.md", fill("README.md.tmpl"));
        files.put(".gitignore", "target/\n");
        return files;
    }

    private String fill(String template) {
        return read(template).replace("{{name}}", name).replace("{{Class}}", className())
                .replace("{{package}}", packageName()).replace("{{artifact}}", artifact())
                .replace("{{droverVersion}}", DroverVersion.VERSION);
    }

    private static String read(String template) {
        try (InputStream in = PluginProjectTemplate.class.getResourceAsStream("template/" + template)) {
            if (in == null) {
                throw new IllegalStateException("template " + template + " is missing from the CLI");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
