package io.drover.core.spec.parse.tree;

import java.nio.ByteBuffer;
import java.nio.charset.CharacterCodingException;
import java.nio.charset.CodingErrorAction;
import java.nio.charset.StandardCharsets;

/** Decodes a file's bytes as strict UTF-8 text, refusing binary content. Pure. */
public final class SourceText {
    private SourceText() {}

    /**
     * @return the text without a leading byte order mark
     * @throws TreeProblem "not a text file" for NUL bytes or invalid UTF-8, "empty file" for blank content
     */
    public static String decode(byte[] content) throws TreeProblem {
        if (content == null || content.length == 0) {
            throw new TreeProblem(0, "", "empty file");
        }
        for (byte b : content) {
            if (b == 0) {
                throw new TreeProblem(0, "", "not a text file (it contains NUL bytes)");
            }
        }
        String text;
        try {
            text = StandardCharsets.UTF_8.newDecoder()
                    .onMalformedInput(CodingErrorAction.REPORT)
                    .onUnmappableCharacter(CodingErrorAction.REPORT)
                    .decode(ByteBuffer.wrap(content))
                    .toString();
        } catch (CharacterCodingException e) {
            throw new TreeProblem(0, "", "not a text file (it is not valid UTF-8)");
        }
        if (text.startsWith("\uFEFF")) {
            text = text.substring(1);
        }
        if (text.isBlank()) {
            throw new TreeProblem(0, "", "empty file");
        }
        return text;
    }

    /** Whether a file holds JSON: its name ends with {@code .json}, or its first non-blank character is '{'. */
    public static boolean looksLikeJson(String sourceName, String text) {
        if (sourceName != null && sourceName.toLowerCase(java.util.Locale.ROOT).endsWith(".json")) {
            return true;
        }
        return text.strip().startsWith("{");
    }
}
