package io.drover.process;

import java.io.IOException;
import java.io.InputStream;
import java.nio.file.Files;
import java.nio.file.Path;
import java.nio.file.attribute.PosixFilePermissions;

/**
 * The exit-status shim (src/main/c/drover-shim.c, compiled by the build into this module's resources), copied
 * to a private temporary file ({@code rwx------}, random name) that is removed when the JVM exits normally.
 * Running shims do not need the file any more. The temporary directory must allow exec (not {@code noexec}).
 */
final class ShimBinary {
    private static final String RESOURCE = "drover-shim";

    private ShimBinary() {}

    /** @throws IllegalStateException when the resource is missing or cannot be written */
    static Path extract() {
        try (InputStream in = ShimBinary.class.getResourceAsStream(RESOURCE)) {
            if (in == null) {
                throw new IllegalStateException("the exit-status shim is missing from the class path (" + RESOURCE
                        + "); the build compiles it with gcc");
            }
            Path file = Files.createTempFile("drover-shim-", "",
                    PosixFilePermissions.asFileAttribute(PosixFilePermissions.fromString("rwx------")));
            file.toFile().deleteOnExit();
            try (java.io.OutputStream out = Files.newOutputStream(file)) { // keeps the rwx------ of the new file
                in.transferTo(out);
            }
            return file;
        } catch (IOException e) {
            throw new IllegalStateException("cannot write the exit-status shim: " + e, e);
        }
    }
}
