package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import io.drover.core.spec.parse.hcl.HclParser;
import io.drover.core.spec.parse.hcl.HclSyntaxException;
import io.drover.core.spec.parse.tree.HclTrees;
import io.drover.core.spec.parse.tree.JsonTrees;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
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
 * key; nothing else escapes (no other exception type for any input). When the file has several problems the
 * exception is a {@link JobFileProblems}: {@link JobFileException#problems()} lists all of them (its message is
 * the first's). A syntax error, or a JSON file not in Nomad's API shape, is reported alone: nothing after it
 * can be read reliably.
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
        Problems problems = new Problems();
        Job job;
        try {
            job = parseTree(sourceName, content, problems);
        } catch (TreeProblem p) {
            problems.add(p);
            job = null;
        } catch (RuntimeException | StackOverflowError e) {
            // Not expected: the parsers refuse every input with a TreeProblem. Kept so the contract holds.
            throw new JobFileException(sourceName, 0, "", "cannot read the job file (" + describe(e) + ")");
        }
        if (!problems.isEmpty()) {
            throw JobFileProblems.of(problems.list().stream()
                    .map(p -> new JobFileException(sourceName, p.line(), p.key(), p.problem())).toList());
        }
        return job;
    }

    /** @return the job, null when {@code problems} got any */
    private static Job parseTree(String sourceName, byte[] content, Problems problems) throws TreeProblem {
        String text = SourceText.decode(content);
        if (SourceText.looksLikeJson(sourceName, text)) {
            Node.Mapping tree = JsonJobShape.toJobTree(JsonTrees.parse(text));
            return JobMapper.map(tree, JsonJobShape.VOCABULARY, sourceName, problems);
        }
        Node.Mapping tree;
        try {
            tree = HclTrees.of(HclParser.parse(text), List.of(), 1);
        } catch (HclSyntaxException e) {
            throw new TreeProblem(e.line(), "", e.getMessage());
        }
        return JobMapper.map(tree, Vocabulary.AS_WRITTEN, sourceName, problems);
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
