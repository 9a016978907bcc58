package io.drover.cli.plugin;

import io.drover.cli.CliContext;
import io.drover.cli.ExitCodes;
import io.drover.cli.UserException;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.LinkOption;
import java.nio.file.Path;
import java.nio.file.StandardOpenOption;
import java.util.Map;
import java.util.concurrent.Callable;
import picocli.CommandLine.Command;
import picocli.CommandLine.Parameters;

/**
 * {@code drover plugin init NAME [DIR]}: writes a standalone Maven project for a new driver plugin (a working driver
 * with its config schema, a sample job under {@code jobs/}, the TCK test, a README) into {@code DIR} (default
 * {@code ./NAME-driver}, with {@code _} as {@code -}). Refuses a DIR that exists and is not an empty folder, or is a
 * link; writes nothing then. Runs on the calling thread; no network.
 */
@Command(name = "init",
        mixinStandardHelpOptions = true,
        description = {"Creates a new driver plugin project: a Maven project whose parent is drover-driver-parent, "
                + "with a working driver and its config schema, a sample job under jobs/, the driver TCK test and a "
                + "README saying how to build, test, drop in and run it.",
            "It builds and passes its tests offline once Drover's SDK is installed (mvn -B install -DskipTests in "
                    + "Drover's checkout)."})
public final class PluginInitCommand implements Callable<Integer> {
    private final CliContext ctx;

    @Parameters(index = "0", paramLabel = "NAME",
            description = "the driver's name, as job files write it: lower case letters, digits and _ (e.g. sleep)")
    private String name;

    @Parameters(index = "1", arity = "0..1", paramLabel = "DIR",
            description = "where to create the project (default ./NAME-driver); must not exist, or be empty")
    private Path dir;

    PluginInitCommand(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public Integer call() {
        PluginProjectTemplate template;
        try {
            template = new PluginProjectTemplate(name);
        } catch (IllegalArgumentException e) {
            throw UserException.badInput(e.getMessage());
        }
        Path target = (dir != null ? dir : Path.of(template.artifact())).toAbsolutePath().normalize();
        checkTarget(target);
        Map<String, String> files = template.files();
        try {
            Files.createDirectories(target);
            for (Map.Entry<String, String> f : files.entrySet()) {
                Path file = target.resolve(f.getKey());
                Files.createDirectories(file.getParent());
                Files.writeString(file, f.getValue(), StandardOpenOption.CREATE_NEW);
            }
        } catch (IOException e) {
            throw new UserException("cannot write the project in " + target + ": " + e, ExitCodes.FAILED);
        }
        ctx.out().println("Created the " + name + " driver plugin project in " + target + ":");
        files.keySet().forEach(f -> ctx.out().println("  " + f));
        ctx.out().println("Next: cd " + target + " && mvn -B verify (needs Drover's SDK installed: "
                + "mvn -B install -DskipTests in Drover's checkout); see its README.md");
        return ExitCodes.OK;
    }

    private static void checkTarget(Path target) {
        if (Files.isSymbolicLink(target)) {
            throw UserException.badInput(target + " is a symbolic link; name a new folder");
        }
        if (!Files.exists(target, LinkOption.NOFOLLOW_LINKS)) {
            return;
        }
        if (!Files.isDirectory(target, LinkOption.NOFOLLOW_LINKS)) {
            throw UserException.badInput(target + " exists and is not a folder; name a new folder");
        }
        try (var entries = Files.list(target)) {
            if (entries.findAny().isPresent()) {
                throw UserException.badInput(target + " is not empty; name a new folder (nothing was written)");
            }
        } catch (IOException e) {
            throw new UserException("cannot read " + target + ": " + e, ExitCodes.FAILED);
        }
    }
}
