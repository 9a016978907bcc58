package io.drover.plugins.rawexec;

import io.drover.driver.api.DriverException;
import java.util.Map;
import java.util.TreeSet;

/**
 * The operator's {@code plugin "raw_exec" { config { enabled = true } }} block. raw_exec runs commands as the
 * agent's user without isolation, so it is off unless enabled, as in Nomad.
 */
record RawExecPluginConfig(boolean enabled) {
    static final String DISABLED_MESSAGE =
            "raw_exec is disabled; enable it with plugin \"raw_exec\" { config { enabled = true } }";

    /** @throws DriverException (unrecoverable) for unknown keys or a non-boolean {@code enabled} */
    static RawExecPluginConfig parse(Map<String, Object> config) throws DriverException {
        TreeSet<String> unknown = new TreeSet<>(config.keySet());
        unknown.remove("enabled");
        if (!unknown.isEmpty()) {
            throw new DriverException("raw_exec plugin config: unknown key(s) " + String.join(", ", unknown)
                    + "; it takes enabled", false);
        }
        Object enabled = config.get("enabled");
        if (enabled != null && !(enabled instanceof Boolean)) {
            throw new DriverException("raw_exec plugin config: enabled must be true or false, got " + enabled, false);
        }
        return new RawExecPluginConfig(Boolean.TRUE.equals(enabled));
    }
}
