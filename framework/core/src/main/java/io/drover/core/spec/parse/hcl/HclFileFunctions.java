package io.drover.core.spec.parse.hcl;

import static io.drover.core.spec.parse.hcl.HclValues.str;

import io.drover.core.spec.parse.hcl.HclValues.ValueException;
import java.io.IOException;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.InvalidPathException;
import java.nio.file.Path;
import java.util.Base64;
import java.util.Optional;

/**
 * The jobspec's filesystem functions ({@code file}, {@code filebase64}, {@code fileexists}, {@code basename},
 * {@code dirname}, {@code abspath}, {@code pathexpand}): relative paths are the job file's directory's, as in
 * Nomad. Without a directory (the agent: job text from HTTP must not read the agent's files) each of them is
 * refused. Files larger than {@value #MAX_BYTES} bytes are refused (a job file's text is held in memory).
 */
final class HclFileFunctions {
    static final int MAX_BYTES = 4 << 20;
    private static final String DISABLED = "filesystem functions are disabled in a job sent to the agent "
            + "(drover job run and drover run evaluate them from the job file's directory)";

    private HclFileFunctions() {}

    static void register(HclFunctions f, Optional<Path> baseDir) {
        f.add("file", 1, 1, a -> text(read(baseDir, str(a.get(0)))));
        f.add("filebase64", 1, 1, a -> Base64.getEncoder().encodeToString(read(baseDir, str(a.get(0)))));
        f.add("fileexists", 1, 1, a -> Files.isRegularFile(resolve(baseDir, str(a.get(0)))));
        f.add("basename", 1, 1, a -> {
            guard(baseDir);
            String p = str(a.get(0)).replaceAll("/+$", "");
            return p.isEmpty() ? "/" : p.substring(p.lastIndexOf('/') + 1);
        });
        f.add("dirname", 1, 1, a -> {
            guard(baseDir);
            String p = str(a.get(0)).replaceAll("/+$", "");
            int i = p.lastIndexOf('/');
            return i < 0 ? "." : i == 0 ? "/" : p.substring(0, i);
        });
        f.add("abspath", 1, 1, a -> resolve(baseDir, str(a.get(0))).toAbsolutePath().normalize().toString());
        f.add("pathexpand", 1, 1, a -> {
            guard(baseDir);
            String p = str(a.get(0));
            return p.startsWith("~/") || p.equals("~") ? System.getProperty("user.home") + p.substring(1) : p;
        });
    }

    private static void guard(Optional<Path> baseDir) throws ValueException {
        if (baseDir.isEmpty()) {
            throw new ValueException(DISABLED);
        }
    }

    private static Path resolve(Optional<Path> baseDir, String path) throws ValueException {
        guard(baseDir);
        try {
            return baseDir.get().resolve(path);
        } catch (InvalidPathException e) {
            throw new ValueException("invalid path \"" + path + "\"");
        }
    }

    private static byte[] read(Optional<Path> baseDir, String path) throws ValueException {
        Path p = resolve(baseDir, path);
        try {
            if (!Files.isRegularFile(p)) {
                throw new ValueException("no such file: " + path);
            }
            if (Files.size(p) > MAX_BYTES) {
                throw new ValueException(path + " is larger than " + MAX_BYTES + " bytes");
            }
            return Files.readAllBytes(p);
        } catch (IOException e) {
            throw new ValueException("cannot read " + path + ": " + e.getMessage());
        }
    }

    private static String text(byte[] bytes) throws ValueException {
        try {
            return StandardCharsets.UTF_8.newDecoder().onMalformedInput(CodingErrorAction.REPORT)
                    .decode(java.nio.ByteBuffer.wrap(bytes)).toString();
        } catch (CharacterCodingException e) {
            throw new ValueException("the file is not UTF-8 text (use filebase64)");
        }
    }
}
