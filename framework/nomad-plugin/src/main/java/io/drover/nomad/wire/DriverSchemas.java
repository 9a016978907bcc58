package io.drover.nomad.wire;

import static io.drover.nomad.wire.ConfigKey.Type.BOOL;
import static io.drover.nomad.wire.ConfigKey.Type.LIST_OF_STRING;
import static io.drover.nomad.wire.ConfigKey.Type.NUMBER;
import static io.drover.nomad.wire.ConfigKey.Type.STRING;
import static io.drover.nomad.wire.ConfigKey.optional;
import static io.drover.nomad.wire.ConfigKey.required;

import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * The plugin-block and task-config schemas of Drover's bundled drivers, as Nomad's client needs them to decode
 * HCL (hclspec). The keys are the ones each driver's own config parser takes (raw_exec and exec:
 * {@code CommandConfig}; java: {@code JavaConfig}; mock: {@code MockConfig}); the driver still validates the
 * values itself. Every task schema also takes {@link MaxRuntime}'s keys. A driver that declares its schemas (the
 * driver SDK's, issue 13) is served with those instead ({@link #resolve}); the table is the fallback for a driver
 * that declares none. Pure.
 */
public final class DriverSchemas {
    private DriverSchemas() {}

    /** A driver's two schemas. */
    public record Schemas(BlockSchema plugin, BlockSchema task) {}

    /**
     * The schemas of driver {@code name}: the ones it declares (the driver SDK's, {@code declared}), else this
     * table's; empty when neither knows the driver's keys.
     */
    public static Optional<Schemas> resolve(String name, io.drover.core.driver.DriverSchemas declared) {
        Optional<Schemas> table = of(name);
        String plugin = NomadNames.pluginName(name);
        BlockSchema pluginBlock = declared.plugin().<BlockSchema>map(s -> new SdkBlockSchema(
                "plugin \"" + plugin + "\" config", s, List.of(), "the " + plugin + " plugin"))
                .orElse(table.map(Schemas::plugin).orElse(null));
        BlockSchema taskBlock = declared.task().<BlockSchema>map(s -> new SdkBlockSchema(
                "task config of driver \"" + plugin + "\"", s, MaxRuntime.KEYS, "the " + plugin + " driver"))
                .orElse(table.map(Schemas::task).orElse(null));
        if (taskBlock == null) {
            return Optional.empty();
        }
        if (pluginBlock == null) {
            pluginBlock = new ConfigSchema("plugin \"" + plugin + "\" config", List.of());
        }
        return Optional.of(new Schemas(pluginBlock, taskBlock));
    }

    private static final Map<String, List<ConfigKey>> TASK = Map.of(
            "raw_exec", List.of(required("command", STRING), optional("args", LIST_OF_STRING),
                    optional("work_dir", STRING)),
            "exec", List.of(required("command", STRING), optional("args", LIST_OF_STRING),
                    optional("work_dir", STRING)),
            "java", List.of(optional("jar_path", STRING), optional("class", STRING),
                    optional("class_path", LIST_OF_STRING), optional("jvm_options", LIST_OF_STRING),
                    optional("args", LIST_OF_STRING), optional("java_home", STRING), optional("user", STRING)),
            "mock", List.of(optional("run_for", STRING), optional("exit_code", NUMBER),
                    optional("exit_signal", NUMBER), optional("exit_err_msg", STRING),
                    optional("start_error", STRING), optional("start_error_recoverable", BOOL),
                    optional("start_block_for", STRING), optional("kill_after", STRING),
                    optional("signal_error", STRING), optional("ignore_signals", BOOL),
                    optional("stdout_string", STRING), optional("stdout_repeat", NUMBER),
                    optional("stdout_repeat_duration", STRING), optional("stderr_string", STRING),
                    optional("stderr_repeat", NUMBER), optional("stderr_repeat_duration", STRING)));

    private static final Map<String, List<ConfigKey>> PLUGIN = Map.of(
            "raw_exec", List.of(optional("enabled", BOOL)),
            "exec", List.of(optional("enabled", BOOL)),
            "java", List.of(optional("enabled", BOOL), optional("default_user", STRING),
                    optional("allow_root", BOOL)),
            "mock", List.of());

    /** The schemas of driver {@code name}, empty for a driver Drover does not know the keys of. */
    public static Optional<Schemas> of(String name) {
        List<ConfigKey> task = TASK.get(name);
        if (task == null) {
            return Optional.empty();
        }
        String plugin = NomadNames.pluginName(name);
        return Optional.of(new Schemas(new ConfigSchema("plugin \"" + plugin + "\" config", PLUGIN.get(name)),
                new ConfigSchema("task config of driver \"" + plugin + "\"", task).plus(MaxRuntime.KEYS)));
    }

    /** The drivers listed here, sorted. */
    public static List<String> known() {
        return TASK.keySet().stream().sorted().toList();
    }
}
