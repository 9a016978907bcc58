package io.drover.core.driver;

import java.time.Duration;

/**
 * How long the agent waits for a plugin's code before it gives up on the call and names the plugin: a third
 * party's {@code Plugin.start()} or driver {@code init} at load (the plugin is then skipped and the agent starts
 * without it), a {@code health()} asked by {@code GET /v1/plugins} (answered "undetected" meanwhile), a
 * {@code validateConfig} of a job submission (a problem line: 400). Immutable.
 */
public record PluginCallLimits(Duration start, Duration init, Duration health, Duration validate) {
    /** 10 s for start and init, 2 s for health, 3 s for validateConfig. */
    public static final PluginCallLimits DEFAULT = new PluginCallLimits(Duration.ofSeconds(10),
            Duration.ofSeconds(10), Duration.ofSeconds(2), Duration.ofSeconds(3));

    /** {@code "10s"}, {@code "300ms"}: how the limits read in problem lines. */
    static String show(Duration d) {
        long ms = d.toMillis();
        return ms % 1000 == 0 ? ms / 1000 + "s" : ms + "ms";
    }
}
