package io.drover.cli;

import io.drover.core.spec.parse.JobFileException;
import io.drover.core.spec.parse.hcl.HclInputs;
import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import picocli.CommandLine.Option;

/**
 * {@code -var NAME=VALUE} and {@code -var-file FILE} (both repeatable) of the commands that read job files,
 * with the {@code NOMAD_VAR_<name>} environment variables: the values of the job files' {@code variable}
 * blocks, in Nomad's precedence (environment, then var files in order, then {@code -var}).
 */
public final class VarOptions {
    @Option(names = {"-var", "--var"}, paramLabel = "NAME=VALUE",
            description = "Sets a job variable (repeatable). Lists, maps and objects are written as HCL: "
                    + "-var 'ports=[80, 443]'.")
    private List<String> vars = new ArrayList<>();

    @Option(names = {"-var-file", "--var-file"}, paramLabel = "FILE",
            description = "HCL file of NAME = VALUE lines setting job variables (repeatable; later files win).")
    private List<Path> varFiles = new ArrayList<>();

    /** The values; a bad {@code -var} or an unreadable var file is a problem naming it (all of them at once). */
    public HclInputs inputs(CliContext ctx) throws JobFileException {
        List<JobFileException> problems = new ArrayList<>();
        Map<String, String> flags = new LinkedHashMap<>();
        for (String v : vars) {
            int eq = v.indexOf('=');
            if (eq <= 0) {
                problems.add(new JobFileException("-var", 0, "", "\"" + v + "\" is not NAME=VALUE"));
            } else {
                flags.put(v.substring(0, eq).strip(), v.substring(eq + 1));
            }
        }
        List<HclInputs.Source> files = new ArrayList<>();
        for (Path f : varFiles) {
            try {
                if (!Files.isRegularFile(f)) {
                    problems.add(new JobFileException(f.toString(), 0, "", Files.exists(f) ? "not a regular file" : "no such file"));
                } else {
                    files.add(new HclInputs.Source(f.toString(), Files.readString(f, StandardCharsets.UTF_8)));
                }
            } catch (IOException | RuntimeException e) {
                problems.add(new JobFileException(f.toString(), 0, "", "cannot read the file: " + e.getMessage()));
            }
        }
        if (!problems.isEmpty()) {
            throw io.drover.core.spec.parse.JobFileProblems.of(problems);
        }
        return new HclInputs(flags, files, HclInputs.fromEnvironment(ctx.env()), Optional.empty());
    }
}
