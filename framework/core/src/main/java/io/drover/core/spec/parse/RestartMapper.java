package io.drover.core.spec.parse;

import io.drover.core.spec.RestartMode;
import io.drover.core.spec.RestartPolicy;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Problems;
import java.time.Duration;
import java.util.List;

/** Reads a {@code restart} block of a group or task. Pure; problems are recorded, not thrown. */
final class RestartMapper {
    /** The keys of a {@code restart} block. */
    static final List<String> KEYS = List.of("attempts", "interval", "delay", "mode");

    private RestartMapper() {}

    /** A {@code restart} block over {@code base}: keys it leaves out keep the base's values (Nomad's merge). */
    static RestartPolicy restart(MapReader r, RestartPolicy base, Problems p) {
        if (r == null) {
            return base;
        }
        int before = p.size();
        int attempts = (int) (long) p.read(() -> r.integer("attempts", base.attempts(), 0, Integer.MAX_VALUE),
                (long) base.attempts());
        Duration interval = p.read(() -> r.duration("interval", base.interval(), false), base.interval());
        Duration delay = p.read(() -> r.duration("delay", base.delay(), false), base.delay());
        String modeName = p.read(() -> r.string("mode", base.mode().wireName()), base.mode().wireName());
        RestartMode mode = RestartMode.fromWire(modeName).orElse(null);
        if (mode == null) {
            p.add(r.problem("mode", "must be fail or delay, found \"" + modeName + "\""));
        }
        return p.size() != before ? base : new RestartPolicy(attempts, interval, delay, mode);
    }
}
