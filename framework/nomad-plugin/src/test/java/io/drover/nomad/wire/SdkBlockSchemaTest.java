package io.drover.nomad.wire;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.Block;
import io.drover.driver.api.schema.BlockList;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.nomad.proto.hclspec.Spec;
import java.util.HexFormat;
import org.junit.jupiter.api.Test;

/** A driver's declared schema (the driver SDK's) as Nomad's hclspec, and its msgpack checked by the SDK. */
class SdkBlockSchemaTest {
    private static final ConfigSchema SCHEMA = ConfigSchema.of(Attribute.string("command").asRequired(),
            Attribute.stringList("args"), Attribute.duration("pause").withDefault("1s"),
            Block.of("logging", Attribute.string("level")),
            BlockList.of("port", Attribute.integer("number").asRequired()).items(1, 3));

    private final SdkBlockSchema schema = new SdkBlockSchema("task config of driver \"drover-x\"", SCHEMA,
            MaxRuntime.KEYS, "the drover-x driver");

    @Test
    void translatesOneToOne() {
        var attrs = schema.toHclSpec().getObject().getAttributesMap();
        assertThat(attrs).containsKeys("command", "args", "pause", "logging", "port", "max_runtime");
        assertThat(attrs.get("command").getAttr().getRequired()).isTrue();
        assertThat(attrs.get("args").getAttr().getType()).isEqualTo("list(string)");
        Spec pause = attrs.get("pause");
        assertThat(pause.getDefault().getPrimary().getAttr().getType()).isEqualTo("string");
        assertThat(pause.getDefault().getDefault().getLiteral().getValue()).isEqualTo("\"1s\"");
        assertThat(attrs.get("logging").getBlockValue().getNested().getObject().getAttributesMap())
                .containsKey("level");
        assertThat(attrs.get("port").getBlockList().getMinItems()).isEqualTo(1);
        assertThat(attrs.get("port").getBlockList().getMaxItems()).isEqualTo(3);
    }

    @Test
    void decodesAndNamesEveryProblem() {
        // {"comand": "x", "max_runtime": "soon"}
        byte[] bad = HexFormat.of().parseHex("82a6636f6d616e64a178ab6d61785f72756e74696d65a4736f6f6e");
        assertThatThrownBy(() -> schema.decode(bad)).isInstanceOfSatisfying(ConfigProblems.class, e -> {
            assertThat(e.problems()).anyMatch(p -> p.startsWith("comand: ")).anyMatch(p -> p.startsWith("command: "))
                    .anyMatch(p -> p.startsWith("max_runtime: "));
            assertThat(e.getMessage()).startsWith("invalid task config of driver \"drover-x\": ");
        });
    }
}
