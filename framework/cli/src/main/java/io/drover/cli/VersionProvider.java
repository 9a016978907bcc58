package io.drover.cli;

import java.io.IOException;
import java.io.InputStream;
import java.util.Properties;
import picocli.CommandLine.IVersionProvider;

/** {@code drover --version}: the version Maven wrote into the CLI jar, and the JVM that runs it. */
final class VersionProvider implements IVersionProvider {
    private static final String POM_PROPERTIES = "/META-INF/maven/io.drover/drover-cli/pom.properties";

    @Override
    public String[] getVersion() {
        return new String[] {"Drover " + version(),
                "JVM " + System.getProperty("java.vm.name") + " " + System.getProperty("java.version")};
    }

    static String version() {
        try (InputStream in = VersionProvider.class.getResourceAsStream(POM_PROPERTIES)) {
            if (in == null) {
                return "(development build)";
            }
            Properties p = new Properties();
            p.load(in);
            return p.getProperty("version", "(unknown)");
        } catch (IOException e) {
            return "(unknown)";
        }
    }
}
