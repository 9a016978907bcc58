package io.drover.nomad.wire;

import io.drover.nomad.proto.hclspec.Attr;
import io.drover.nomad.proto.hclspec.Spec;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeSet;

/**
 * A flat config block's schema (for a driver that declares none: Drover's table, {@link DriverSchemas}): the keys it takes. Translates to Nomad's hclspec (an {@code Object} of {@code Attr}s,
 * what the Nomad client decodes the HCL with) and decodes the msgpack Nomad then sends, naming every bad key.
 * Immutable; any thread.
 *
 * @param block how messages name the block, e.g. {@code task config of drover-raw_exec}
 */
public record ConfigSchema(String block, List<ConfigKey> keys) implements BlockSchema {
    public ConfigSchema {
        keys = List.copyOf(keys);
    }

    /** This schema with {@code more} keys after its own. */
    public ConfigSchema plus(List<ConfigKey> more) {
        List<ConfigKey> all = new ArrayList<>(keys);
        all.addAll(more);
        return new ConfigSchema(block, all);
    }

    @Override
    public Spec toHclSpec() {
        io.drover.nomad.proto.hclspec.Object.Builder object = io.drover.nomad.proto.hclspec.Object.newBuilder();
        for (ConfigKey k : keys) {
            object.putAttributes(k.name(), Spec.newBuilder().setAttr(Attr.newBuilder().setName(k.name())
                    .setType(k.type().expression()).setRequired(k.required())).build());
        }
        return Spec.newBuilder().setObject(object).build();
    }

    /**
     * Decodes the block's msgpack: the set attributes, converted to what a Drover driver takes.
     *
     * @throws ConfigProblems naming every unknown, missing or mistyped key (all at once), or the undecodable bytes
     */
    @Override
    public Map<String, Object> decode(byte[] msgpack) throws ConfigProblems {
        Map<String, Object> raw;
        try {
            raw = CtyMsgpack.decodeObject(msgpack);
        } catch (IllegalArgumentException e) {
            throw new ConfigProblems(block, List.of("cannot decode: " + e.getMessage()));
        }
        return check(raw);
    }

    /** As {@link #decode}, for values already decoded. */
    public Map<String, Object> check(Map<String, Object> raw) throws ConfigProblems {
        Map<String, ConfigKey> byName = new LinkedHashMap<>();
        keys.forEach(k -> byName.put(k.name(), k));
        List<String> problems = new ArrayList<>();
        Map<String, Object> out = new LinkedHashMap<>();
        for (String name : new TreeSet<>(raw.keySet())) {
            ConfigKey key = byName.get(name);
            if (key == null) {
                problems.add(name + ": unknown key; takes " + String.join(", ", byName.keySet()));
                continue;
            }
            ConfigKey.Result r = key.convert(raw.get(name));
            r.problem().ifPresentOrElse(problems::add, () -> out.put(name, r.value()));
        }
        for (ConfigKey k : keys) {
            if (k.required() && !raw.containsKey(k.name())) {
                problems.add(k.name() + ": is required");
            }
        }
        if (keys.containsAll(MaxRuntime.KEYS)) {
            MaxRuntime.take(new LinkedHashMap<>(out), problems); // its values too, reported with the others
        }
        if (!problems.isEmpty()) {
            throw new ConfigProblems(block, problems);
        }
        return out;
    }
}
