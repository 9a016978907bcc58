package io.drover.nomad;

import io.drover.nomad.wire.DriverSchemas;
import io.drover.nomad.wire.NomadNames;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;
import java.util.ArrayList;
import java.util.List;

/**
 * Writes a Nomad {@code plugin_dir}: one executable per Drover driver, named {@code drover-<driver>} (Nomad runs
 * every executable of its plugin_dir and learns the plugin's name from PluginInfo; the file name is what the
 * operator sees). Each is a two-line shell script that execs the given command with the driver's name:
 * {@code exec <command...> <driver> <suffix...> "$@"}. Arguments are single-quoted. Run by the build (package
 * phase) with the repository's launcher, and by the tests with a plain {@code java} command.
 */
public final class PluginDirLayout {
    private PluginDirLayout() {}

    /** @return the executables written */
    public static List<Path> write(Path dir, List<String> command, List<String> suffix) throws IOException {
        Files.createDirectories(dir);
        List<Path> out = new ArrayList<>();
        for (String driver : DriverSchemas.known()) {
            StringBuilder line = new StringBuilder("exec");
            for (String c : command) {
                line.append(' ').append(quote(c));
            }
            line.append(' ').append(quote(driver));
            for (String s : suffix) {
                line.append(' ').append(quote(s));
            }
            line.append(" \"$@\"\n");
            Path file = dir.resolve(NomadNames.pluginName(driver));
            Path tmp = dir.resolve("." + file.getFileName() + ".tmp");
            Files.writeString(tmp, "#!/bin/sh\n# Drover's " + driver + " driver as a Nomad task driver plugin "
                    + "(docs/nomad.md)\n" + line);
            Files.setPosixFilePermissions(tmp, PosixFilePermissions.fromString("rwxr-xr-x"));
            Files.move(tmp, file, java.nio.file.StandardCopyOption.REPLACE_EXISTING,
                    java.nio.file.StandardCopyOption.ATOMIC_MOVE);
            out.add(file);
        }
        return out;
    }

    static String quote(String s) {
        return "'" + s.replace("'", "'\\''") + "'";
    }

    /**
     * {@code PluginDirLayout DIR LAUNCHER}: the build's layout, executables that run
     * {@code DROVER_BUILD=0 LAUNCHER nomad-plugin <driver>}.
     */
    public static void main(String[] args) throws IOException {
        if (args.length != 2) {
            System.err.println("usage: PluginDirLayout DIR LAUNCHER");
            System.exit(2);
        }
        write(Path.of(args[0]), List.of("env", "DROVER_BUILD=0", args[1], "nomad-plugin"), List.of());
    }
}
