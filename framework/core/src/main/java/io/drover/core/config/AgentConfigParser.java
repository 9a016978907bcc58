package io.drover.core.config;

import io.drover.core.spec.parse.hcl.HclParser;
import io.drover.core.spec.parse.hcl.HclSyntaxException;
import io.drover.core.spec.parse.tree.HclTrees;
import io.drover.core.spec.parse.tree.JsonTrees;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.SourceText;
import io.drover.core.spec.parse.tree.TreeProblem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;

/**
 * Reads an agent config file (HCL or JSON, contract §4). Unknown keys and bad values are refused with a
 * {@link ConfigException} naming file, line and key ({@code client > gc_interval}); nothing else escapes.
 * JSON is chosen by a {@code .json} name or a leading '{'. Relative {@code data_dir} and {@code plugin_dir}
 * are resolved against the config file's directory. Keys left out keep {@link AgentConfig#defaults()}.
 */
public final class AgentConfigParser {
    private AgentConfigParser() {}

    public static AgentConfig parse(Path file) throws ConfigException {
        String name = String.valueOf(file);
        try {
            byte[] content = Files.readAllBytes(file);
            Path dir = file.toAbsolutePath().getParent();
            return AgentConfigMapper.map(name, tree(name, content), dir == null ? Path.of("").toAbsolutePath() : dir);
        } catch (TreeProblem p) {
            throw new ConfigException(name, p.line(), p.key(), p.problem());
        } catch (IOException e) {
            throw new ConfigException(name, 0, "", "cannot read the file: " + e.getMessage());
        } catch (RuntimeException | StackOverflowError e) {
            // Not expected: every bad input is a TreeProblem. Kept so that nothing else escapes.
            throw new ConfigException(name, 0, "", "cannot read the config (" + e + ")");
        }
    }

    private static Node.Mapping tree(String name, byte[] content) throws TreeProblem {
        String text = SourceText.decode(content);
        if (SourceText.looksLikeJson(name, text)) {
            return JsonConfigShape.toConfigTree(JsonTrees.parse(text));
        }
        try {
            return HclTrees.of(HclParser.parse(text), List.of(), 1);
        } catch (HclSyntaxException e) {
            throw new TreeProblem(e.line(), "", e.getMessage());
        }
    }
}
