package io.drover.core.spec.parse.hcl;

import java.nio.file.Path;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * What a job file's {@code variable} blocks get their values from, lowest precedence first (Nomad's order):
 * their defaults, {@code NOMAD_VAR_<name>} environment variables, {@code -var-file} files in order, then
 * {@code -var name=value} flags; and the directory the filesystem functions read from (empty: disabled).
 *
 * @param flags {@code -var} values by name, as typed (parsed per the variable's type)
 * @param files {@code -var-file} contents with their names (for messages)
 * @param env {@code NOMAD_VAR_*} values by variable name (the prefix removed)
 */
public record HclInputs(Map<String, String> flags, List<Source> files, Map<String, String> env, Optional<Path> baseDir) {
    /** No values, no filesystem functions: what the agent gets with a job's text. */
    public static final HclInputs NONE = new HclInputs(Map.of(), List.of(), Map.of(), Optional.empty());

    /** The prefix of the environment variables that set job variables. */
    public static final String ENV_PREFIX = "NOMAD_VAR_";

    /** A {@code -var-file}: its name for messages and its text. */
    public record Source(String name, String text) {}

    public HclInputs {
        flags = Map.copyOf(flags);
        files = List.copyOf(files);
        env = Map.copyOf(env);
    }

    /** The {@code NOMAD_VAR_*} entries of an environment, by variable name. */
    public static Map<String, String> fromEnvironment(Map<String, String> environment) {
        Map<String, String> out = new LinkedHashMap<>();
        environment.forEach((k, v) -> {
            if (k.startsWith(ENV_PREFIX) && k.length() > ENV_PREFIX.length()) {
                out.put(k.substring(ENV_PREFIX.length()), v);
            }
        });
        return out;
    }

    public HclInputs withBaseDir(Path dir) {
        return new HclInputs(flags, files, env, Optional.of(dir));
    }
}
