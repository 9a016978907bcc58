package io.drover.nomad.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Duration;
import java.util.ArrayList;
import java.util.HexFormat;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** go-cty msgpack decoding and the schema checks of a task config, naming every bad key at once. */
class ConfigDecodingTest {
    private static byte[] hex(String s) {
        return HexFormat.of().parseHex(s.replace(" ", ""));
    }

    @Test
    void decodesAnObjectLeavingOutNullAttributes() {
        // {"args": ["-c","x"], "command": "/bin/sh", "work_dir": nil} as go-cty writes it (map, keys sorted)
        byte[] b = hex("83 a4 61726773 92 a2 2d63 a1 78 a7 636f6d6d616e64 a7 2f62696e2f7368"
                + " a8 776f726b5f646972 c0");
        assertThat(CtyMsgpack.decodeObject(b)).containsExactly(Map.entry("args", List.of("-c", "x")),
                Map.entry("command", "/bin/sh"));
    }

    @Test
    void numbersBoolsAndRefusals() {
        assertThat(CtyMsgpack.decode(hex("cd 0400"))).isEqualTo(1024L);
        assertThat(CtyMsgpack.decode(hex("cb 3ff8000000000000"))).isEqualTo(1.5);
        assertThat(CtyMsgpack.decode(hex("c3"))).isEqualTo(true);
        assertThat(CtyMsgpack.decode(new byte[0])).isNull();
        assertThatThrownBy(() -> CtyMsgpack.decode(hex("d4 00 00"))).hasMessageContaining("unknown value");
        assertThatThrownBy(() -> CtyMsgpack.decode(hex("a5 6162"))).hasMessageContaining("truncated");
        assertThatThrownBy(() -> CtyMsgpack.decode(hex("c3 c3"))).hasMessageContaining("after the value");
        // a number too precise for a float64 arrives as its text
        assertThat(ConfigKey.optional("n", ConfigKey.Type.NUMBER).convert("12345678901234567").value())
                .isEqualTo(12345678901234567L);
    }

    @Test
    void everyBadKeyIsNamedAtOnce() {
        ConfigSchema schema = (ConfigSchema) DriverSchemas.of("raw_exec").orElseThrow().task();
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("comand", "/bin/true");
        raw.put("args", "not a list");
        assertThatThrownBy(() -> schema.check(raw)).isInstanceOfSatisfying(ConfigProblems.class, e -> {
            assertThat(e.problems()).containsExactly("args: must be list(string), got a string",
                    "comand: unknown key; takes command, args, work_dir, max_runtime, max_runtime_signal, "
                            + "max_runtime_grace",
                    "command: is required");
            assertThat(e.getMessage()).startsWith("invalid task config of driver \"drover-raw_exec\": ");
        });
    }

    @Test
    void hclSpecIsAnObjectOfAttrs() {
        var spec = DriverSchemas.of("raw_exec").orElseThrow().task().toHclSpec();
        var command = spec.getObject().getAttributesOrThrow("command").getAttr();
        assertThat(command.getName()).isEqualTo("command");
        assertThat(command.getType()).isEqualTo("string");
        assertThat(command.getRequired()).isTrue();
        assertThat(spec.getObject().getAttributesOrThrow("args").getAttr().getType()).isEqualTo("list(string)");
        assertThat(spec.getObject().getAttributesOrThrow("max_runtime").getAttr().getRequired()).isFalse();
    }

    @Test
    void maxRuntimeDefaultsAndProblems() {
        Map<String, Object> config = new LinkedHashMap<>(Map.of("command", "x", "max_runtime", "1m30s"));
        List<String> problems = new ArrayList<>();
        MaxRuntime m = MaxRuntime.take(config, problems);
        assertThat(problems).isEmpty();
        assertThat(config).containsOnlyKeys("command");
        assertThat(m).isEqualTo(new MaxRuntime(Duration.ofSeconds(90), "SIGTERM", Duration.ofSeconds(5)));
        assertThat(m.exceededMessage()).isEqualTo("Max Runtime Exceeded: limit 1m30s, SIGTERM then SIGKILL after 5s");
        assertThat(MaxRuntime.fromState(m.toState())).isEqualTo(m);

        MaxRuntime.take(new LinkedHashMap<>(Map.of("max_runtime", "0s", "max_runtime_signal", "SIGNOPE",
                "max_runtime_grace", "soon")), problems);
        assertThat(problems).hasSize(3).anyMatch(p -> p.startsWith("max_runtime: must be positive"))
                .anyMatch(p -> p.startsWith("max_runtime_signal: unknown signal"))
                .anyMatch(p -> p.startsWith("max_runtime_grace: "));
        assertThat(MaxRuntime.take(new LinkedHashMap<>(), new ArrayList<>()).limited()).isFalse();
    }
}
