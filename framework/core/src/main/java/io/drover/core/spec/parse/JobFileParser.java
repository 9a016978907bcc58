package io.drover.core.spec.parse;

import io.drover.core.spec.Job;
import io.drover.core.spec.parse.hcl.HclBody;
import io.drover.core.spec.parse.hcl.HclEvaluation;
import io.drover.core.spec.parse.hcl.HclInputs;
import io.drover.core.spec.parse.hcl.HclParser;
import io.drover.core.spec.parse.hcl.HclProblem;
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
import java.util.ArrayList;
import java.util.List;

/**
 * Reads a job file, HCL (Nomad's jobspec) or JSON (Nomad's API shape {@code {"Job": {...}}}), into a
 * validated {@link Job}. Pure and thread-safe. Refuses with a {@link JobFileException} naming file, line and
 * key; nothing else escapes (no other exception type for any input). When the file has several problems the
 * exception is a {@link JobFileProblems}: {@link JobFileException#problems()} lists all of them (its message is
 * the first's). A syntax error, or a JSON file not in Nomad's API shape, is reported alone: nothing after it
 * can be read reliably.
 *
 * <p>The syntax is JSON when the name ends with {@code .json} or the text starts with '{', else HCL. HCL is
 * HCL2 as Nomad reads jobspecs: {@link HclEvaluation} gives the variables ({@link HclInputs}) their values,
 * evaluates locals, expressions, functions and dynamic blocks, and keeps run-time references
 * (<code>${attr.x}</code>, <code>${NOMAD_ALLOC_DIR}</code>) as text. Both syntaxes are read into one neutral
 * tree, which {@link JobMapper} validates and turns into records. Problems of evaluation name line and
 * column; a {@code -var-file}'s problems name that file.
 */
public final class JobFileParser {
    private JobFileParser() {}

    /** A job file without variable values from outside; filesystem functions read from its directory. */
    public static Job parse(Path file) throws JobFileException {
        return parse(file, HclInputs.NONE);
    }

    /** @param inputs variable values; its base directory is replaced by the file's own directory */
    public static Job parse(Path file, HclInputs inputs) throws JobFileException {
        String name = String.valueOf(file);
        byte[] content;
        try {
            content = Files.readAllBytes(file);
        } catch (IOException | RuntimeException e) {
            throw new JobFileException(name, 0, "", "cannot read the file: " + describe(e));
        }
        Path dir = file.toAbsolutePath().getParent();
        return parse(name, content, dir == null ? inputs : inputs.withBaseDir(dir));
    }

    /**
     * A job's text without variable values from outside and without filesystem functions (the agent's case).
     *
     * @param sourceName file name for messages; its extension ({@code .json}) picks the syntax
     */
    public static Job parse(String sourceName, byte[] content) throws JobFileException {
        return parse(sourceName, content, HclInputs.NONE);
    }

    public static Job parse(String sourceName, byte[] content, HclInputs inputs) throws JobFileException {
        return parse(sourceName, content, inputs, true);
    }

    /**
     * A job's HCL text as {@link #evaluatedText} wrote it: literals only, read without evaluating anything
     * (its <code>${...}</code> are the run-time interpolation's). What the agent does with the job
     * {@code drover job run} evaluated on the user's machine.
     */
    public static Job parseEvaluated(String sourceName, byte[] content) throws JobFileException {
        return parse(sourceName, content, HclInputs.NONE, false);
    }

    /**
     * The HCL text of a job file after evaluation with {@code inputs} (variables, locals, functions, dynamic
     * blocks), each item on its original line, for {@link #parseEvaluated}; the file is checked by
     * {@link #parse(Path, HclInputs)} first, so every problem is the file's own.
     */
    public static String evaluatedText(Path file, HclInputs inputs) throws JobFileException {
        parse(file, inputs);
        Path dir = file.toAbsolutePath().getParent();
        String name = String.valueOf(file);
        try {
            String text = SourceText.decode(Files.readAllBytes(file));
            HclEvaluation.Result r = HclEvaluation.evaluate(HclParser.parse(text), dir == null ? inputs : inputs.withBaseDir(dir));
            return io.drover.core.spec.parse.hcl.HclRenderer.render(r.body());
        } catch (IOException | TreeProblem | HclSyntaxException e) {
            throw new JobFileException(name, 0, "", "cannot read the file: " + describe(e));
        }
    }

    private static Job parse(String sourceName, byte[] content, HclInputs inputs, boolean evaluate)
            throws JobFileException {
        Problems problems = new Problems();
        List<JobFileException> early = new ArrayList<>();
        Job job;
        try {
            job = parseTree(sourceName, content, inputs, evaluate, problems, early);
        } catch (TreeProblem p) {
            problems.add(p);
            job = null;
        } catch (RuntimeException | StackOverflowError e) {
            // Not expected: the parsers refuse every input with a TreeProblem. Kept so the contract holds.
            throw new JobFileException(sourceName, 0, "", "cannot read the job file (" + describe(e) + ")");
        }
        if (!problems.isEmpty() || !early.isEmpty()) {
            List<JobFileException> all = new ArrayList<>(early);
            problems.list().forEach(p -> all.add(new JobFileException(sourceName, p.line(), p.key(), p.problem())));
            throw JobFileProblems.of(all);
        }
        return job;
    }

    /** @return the job, null when {@code problems} or {@code early} got any */
    private static Job parseTree(String sourceName, byte[] content, HclInputs inputs, boolean evaluate,
            Problems problems, List<JobFileException> early) throws TreeProblem {
        String text = SourceText.decode(content);
        if (SourceText.looksLikeJson(sourceName, text)) {
            Node.Mapping tree = JsonJobShape.toJobTree(JsonTrees.parse(text));
            return JobMapper.map(tree, JsonJobShape.VOCABULARY, sourceName, problems);
        }
        HclBody raw;
        try {
            raw = HclParser.parse(text);
        } catch (HclSyntaxException e) {
            throw new TreeProblem(e.line(), "", e.getMessage());
        }
        HclEvaluation.Result evaluated = evaluate ? HclEvaluation.evaluate(raw, inputs)
                : HclEvaluation.literalOnly(raw);
        for (HclProblem p : evaluated.problems()) {
            early.add(new JobFileException(p.file() == null ? sourceName : p.file(), p.line(), p.col(), "", p.message()));
        }
        Node.Mapping tree = HclTrees.of(evaluated.body(), List.of(), 1);
        Problems mapped = new Problems();
        Job job = JobMapper.map(tree, Vocabulary.HCL2, sourceName, mapped);
        for (TreeProblem p : mapped.list()) {
            if (!alreadyReported(p, evaluated)) {
                problems.add(p);
            }
        }
        return early.isEmpty() ? job : null;
    }

    /** A "driver: is required" for an attribute left out because its expression failed is said once, not twice. */
    private static boolean alreadyReported(TreeProblem p, HclEvaluation.Result evaluated) {
        if (evaluated.failed().isEmpty() || !p.problem().startsWith("is required")) {
            return false;
        }
        String key = p.key();
        String leaf = key.substring(key.lastIndexOf(" > ") + 3);
        return evaluated.failed().contains(p.line() + ":" + leaf);
    }

    private static String describe(Throwable e) {
        return e.getMessage() == null ? e.getClass().getSimpleName() : e.getMessage();
    }
}
