package io.drover.core.engine;

import io.drover.core.config.GcKillPolicy;
import java.nio.file.Path;
import java.time.Duration;

/**
 * What the engine needs from the agent's config.
 *
 * @param dataDir allocation directories go under {@code dataDir/alloc/<alloc-id>}
 * @param maxKillTimeout caps every task's kill_timeout
 */
public record EngineConfig(Path dataDir, Duration maxKillTimeout, GcKillPolicy killPolicy) {}
