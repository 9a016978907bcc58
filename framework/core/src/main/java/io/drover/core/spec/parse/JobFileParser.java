package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import io.drover.core.spec.parse.hcl.HclParser;
import io.drover.core.spec.parse.hcl.HclSyntaxException;
import io.drover.core.spec.parse.tree.HclTrees;
import io.drover.core.spec.parse.tree.JsonTrees;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.SourceText;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.core.spec.parse.tree.Vocabulary;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads a job file, HCL (Nomad's jobspec) or JSON (Nomad's API shape {@code {"Job": {...}}}), into a
 * validated {@link Job}. Pure and thread-safe. Refuses with a {@link JobFileException} naming file, line and
 * key; nothing else escapes (no other exception type for any input).
 *
 * <p>The syntax is JSON when the name ends with {@code .json} or the text starts with '{', else HCL. Both are
 * read into one neutral tree, which {@link JobMapper} validates and turns into records.
 */
public final class JobFileParser {
    private JobFileParser() {}

    public static Job parse(Path file) throws JobFileException {
        String name = String.valueOf(file);
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException | RuntimeException e) {
            throw new JobFileException(name, 0, "", "cannot read the file: " + describe(e));
        }
        return parse(name, content);
    }

    /** @param sourceName file name for messages; its extension ({@code .json}) picks the syntax */
    public static Job parse(String sourceName, byte[] content) throws JobFileException {
        try {
            return parseTree(sourceName, content);
        } catch (TreeProblem p) {
            throw new JobFileException(sourceName, p.line(), p.key(), p.problem());
        } catch (RuntimeException | StackOverflowError e) {
            // Not expected: the parsers refuse every input with a TreeProblem. Kept so the contract holds.
            throw new JobFileException(sourceName, 0, "", "cannot read the job file (" + describe(e) + ")");
        }
    }

    private static Job parseTree(String sourceName, byte[] content) throws TreeProblem {
        String text = SourceText.decode(content);
        if (SourceText.looksLikeJson(sourceName, text)) {
            Node.Mapping tree = JsonJobShape.toJobTree(JsonTrees.parse(text));
            return JobMapper.map(tree, JsonJobShape.VOCABULARY, sourceName);
        }
        Node.Mapping tree;
        try {
            tree = HclTrees.of(HclParser.parse(text), List.of(), 1);
        } catch (HclSyntaxException e) {
            throw new TreeProblem(e.line(), "", e.getMessage());
        }
        return JobMapper.map(tree, Vocabulary.AS_WRITTEN, sourceName);
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
