package io.drover.nomad.wire;

import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.Block;
import io.drover.driver.api.schema.BlockList;
import io.drover.driver.api.schema.ConfigValidation;
import io.drover.driver.api.schema.SchemaKey;
import io.drover.nomad.proto.hclspec.Attr;
import io.drover.nomad.proto.hclspec.Default;
import io.drover.nomad.proto.hclspec.Literal;
import io.drover.nomad.proto.hclspec.Spec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * A block whose schema the driver declares (the driver SDK's {@link io.drover.driver.api.schema.ConfigSchema}),
 * plus Drover's own flat keys under Nomad ({@code extra}: max_runtime). Translates one to one into hclspec: an
 * attribute is an {@code Attr} (with a default, {@code Default{primary = Attr, default = Literal}}), a block a
 * {@code Block}, a repeated block a {@code BlockList}, each nested schema an {@code Object}. Decoding checks the
 * values with the SDK's validator (every problem with its key path) after taking out the extra keys. Immutable.
 */
public record SdkBlockSchema(String block, io.drover.driver.api.schema.ConfigSchema schema, List<ConfigKey> extra,
        String owner) implements BlockSchema {
    public SdkBlockSchema {
        extra = List.copyOf(extra);
    }

    @Override
    public Spec toHclSpec() {
        Spec.Builder spec = object(schema).toBuilder();
        io.drover.nomad.proto.hclspec.Object.Builder o = spec.getObject().toBuilder();
        new ConfigSchema(block, extra).toHclSpec().getObject().getAttributesMap().forEach(o::putAttributes);
        return Spec.newBuilder().setObject(o).build();
    }

    static Spec object(io.drover.driver.api.schema.ConfigSchema schema) {
        io.drover.nomad.proto.hclspec.Object.Builder o = io.drover.nomad.proto.hclspec.Object.newBuilder();
        for (SchemaKey k : schema.keys()) {
            o.putAttributes(k.name(), spec(k));
        }
        return Spec.newBuilder().setObject(o).build();
    }

    private static Spec spec(SchemaKey key) {
        if (key instanceof Attribute a) {
            Spec attr = Spec.newBuilder().setAttr(Attr.newBuilder().setName(a.name()).setType(a.type().hclType())
                    .setRequired(a.required())).build();
            if (a.defaultValue() == null) {
                return attr;
            }
            return Spec.newBuilder().setDefault(Default.newBuilder().setPrimary(attr)
                    .setDefault(Spec.newBuilder().setLiteral(Literal.newBuilder().setValue(a.defaultLiteral()))))
                    .build();
        }
        if (key instanceof Block b) {
            return Spec.newBuilder().setBlockValue(io.drover.nomad.proto.hclspec.Block.newBuilder().setName(b.name())
                    .setRequired(b.required()).setNested(object(b.nested()))).build();
        }
        BlockList l = (BlockList) key;
        io.drover.nomad.proto.hclspec.BlockList.Builder list = io.drover.nomad.proto.hclspec.BlockList.newBuilder()
                .setName(l.name()).setNested(object(l.nested())).setMinItems(Math.max(0, l.minItems()));
        if (l.maxItems() > 0) {
            list.setMaxItems(l.maxItems());
        }
        return Spec.newBuilder().setBlockList(list).build();
    }

    @Override
    public Map<String, Object> decode(byte[] msgpack) throws ConfigProblems {
        Map<String, Object> raw;
        try {
            raw = CtyMsgpack.decodeObject(msgpack);
        } catch (IllegalArgumentException e) {
            throw new ConfigProblems(block, List.of("cannot decode: " + e.getMessage()));
        }
        Map<String, Object> own = new LinkedHashMap<>();
        Map<String, Object> mine = new LinkedHashMap<>();
        raw.forEach((k, v) -> (extra.stream().anyMatch(e -> e.name().equals(k)) ? mine : own).put(k, clean(v)));
        List<String> problems = new ArrayList<>();
        Map<String, Object> out = new LinkedHashMap<>();
        try {
            out.putAll(new ConfigSchema(block, extra).check(mine));
        } catch (ConfigProblems e) {
            problems.addAll(e.problems());
        }
        if (extra.containsAll(MaxRuntime.KEYS)) {
            MaxRuntime.take(new LinkedHashMap<>(out), problems); // its values too, reported with the others
        }
        ConfigValidation v = schema.validate(own, owner);
        v.problems().forEach(p -> problems.add(p.key() + ": " + p.message()));
        if (!problems.isEmpty()) {
            throw new ConfigProblems(block, problems);
        }
        out.putAll(own);
        return out;
    }

    /** Nested objects: go-cty sends every attribute of a block, unset ones null; the SDK wants them absent. */
    private static Object clean(Object v) {
        if (v instanceof Map<?, ?> m) {
            Map<String, Object> out = new LinkedHashMap<>();
            m.forEach((k, x) -> {
                if (x != null) {
                    out.put((String) k, clean(x));
                }
            });
            return out;
        }
        if (v instanceof List<?> l) {
            List<Object> out = new ArrayList<>();
            l.forEach(x -> out.add(clean(x)));
            return out;
        }
        return v;
    }
}
