package io.drover.nomad.wire;

import io.drover.core.event.GoDuration;
import io.drover.core.spec.parse.GoDurations;
import io.drover.driver.api.Signals;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;

/**
 * Drover's {@code max_runtime} in a Nomad task's driver config: the wall-clock limit of one run, the signal sent
 * when it is reached ({@code max_runtime_signal}, default {@code SIGTERM}) and how long the task then has before
 * SIGKILL ({@code max_runtime_grace}, default {@code 5s}). Immutable.
 *
 * @param limit null: no limit
 */
public record MaxRuntime(Duration limit, String signal, Duration grace) {
    public static final String KEY = "max_runtime";
    public static final String SIGNAL_KEY = "max_runtime_signal";
    public static final String GRACE_KEY = "max_runtime_grace";
    public static final String DEFAULT_SIGNAL = "SIGTERM";
    public static final Duration DEFAULT_GRACE = Duration.ofSeconds(5);
    public static final MaxRuntime NONE = new MaxRuntime(null, DEFAULT_SIGNAL, DEFAULT_GRACE);

    static final List<ConfigKey> KEYS = List.of(ConfigKey.optional(KEY, ConfigKey.Type.STRING),
            ConfigKey.optional(SIGNAL_KEY, ConfigKey.Type.STRING), ConfigKey.optional(GRACE_KEY, ConfigKey.Type.STRING));

    public boolean limited() {
        return limit != null;
    }

    /** The event message: {@code Max Runtime Exceeded: limit 2s, SIGTERM then SIGKILL after 5s}. */
    public String exceededMessage() {
        return "Max Runtime Exceeded: limit " + GoDuration.format(limit) + ", " + signal + " then SIGKILL after "
                + GoDuration.format(grace);
    }

    /**
     * Takes the max_runtime keys out of a decoded task config ({@code config} keeps the driver's own keys).
     *
     * @param problems gets one line per bad key
     */
    public static MaxRuntime take(Map<String, Object> config, List<String> problems) {
        Object rawLimit = config.remove(KEY);
        Object rawSignal = config.remove(SIGNAL_KEY);
        Object rawGrace = config.remove(GRACE_KEY);
        Duration limit = duration(KEY, rawLimit, problems).orElse(null);
        if (limit != null && (limit.isZero() || limit.isNegative())) {
            problems.add(KEY + ": must be positive, got \"" + rawLimit + "\"");
            limit = null;
        }
        Duration grace = duration(GRACE_KEY, rawGrace, problems).orElse(DEFAULT_GRACE);
        if (grace.isNegative()) {
            problems.add(GRACE_KEY + ": must not be negative, got \"" + rawGrace + "\"");
        }
        String signal = DEFAULT_SIGNAL;
        if (rawSignal != null) {
            Optional<String> canonical = Signals.canonical((String) rawSignal);
            if (canonical.isEmpty()) {
                problems.add(SIGNAL_KEY + ": unknown signal \"" + rawSignal + "\"");
            } else {
                signal = canonical.get();
            }
        }
        return new MaxRuntime(limit, signal, grace);
    }

    private static Optional<Duration> duration(String key, Object raw, List<String> problems) {
        if (raw == null) {
            return Optional.empty();
        }
        try {
            return Optional.of(GoDurations.parse((String) raw));
        } catch (IllegalArgumentException e) {
            problems.add(key + ": " + e.getMessage());
            return Optional.empty();
        }
    }

    /** For {@code driver_state}: limit, signal and grace in nanoseconds / names. */
    public Map<String, String> toState() {
        Map<String, String> m = new java.util.LinkedHashMap<>();
        if (limit != null) {
            m.put(KEY, Long.toString(limit.toNanos()));
        }
        m.put(SIGNAL_KEY, signal);
        m.put(GRACE_KEY, Long.toString(grace.toNanos()));
        return m;
    }

    public static MaxRuntime fromState(Map<String, String> m) {
        String limit = m.get(KEY);
        String grace = m.get(GRACE_KEY);
        return new MaxRuntime(limit == null ? null : Duration.ofNanos(Long.parseLong(limit)),
                m.getOrDefault(SIGNAL_KEY, DEFAULT_SIGNAL),
                grace == null ? DEFAULT_GRACE : Duration.ofNanos(Long.parseLong(grace)));
    }

}
