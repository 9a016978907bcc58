package io.drover.agent.http;

import io.drover.core.driver.DriverInfo;
import io.drover.driver.api.schema.ConfigSchema;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.function.Supplier;
import org.slf4j.Logger;
import org.slf4j.LoggerFactory;

/**
 * Agent-wide routes: {@code PUT|POST /v1/system/gc} (schedules a client GC pass that destroys every terminal
 * allocation, keeping its record, and answers at once), {@code GET /v1/plugins}, {@code GET /v1/plugins/problems}
 * ({@code {"Problems": ["<line>", ...]}}: a refused plugin_dir, each skipped JAR) and {@code GET /v1/agent/health} (Nomad's shape
 * {@code {"client": {"ok": true, "message": "ok"}}}).
 */
public final class SystemHandler {
    private static final Logger LOG = LoggerFactory.getLogger(SystemHandler.class);

    private final Runnable gcTrigger;
    private final Supplier<List<DriverInfo>> drivers;
    private final Supplier<List<String>> problems;

    SystemHandler(Runnable gcTrigger, Supplier<List<DriverInfo>> drivers, Supplier<List<String>> problems) {
        this.gcTrigger = gcTrigger;
        this.drivers = drivers;
        this.problems = problems;
    }

    public void addRoutes(Router router) {
        router.add("PUT,POST", "/v1/system/gc", this::gc)
                .add("GET", "/v1/plugins", this::plugins)
                .add("GET", "/v1/plugins/problems", req -> req.respond(200, Map.of("Problems", problems.get())))
                .add("GET", "/v1/agent/health", req -> req.respond(200,
                        Map.of("client", Map.of("ok", true, "message", "ok"))));
    }

    private void gc(ApiRequest req) throws Exception {
        LOG.info("gc requested");
        gcTrigger.run();
        req.respond(200, Map.of());
    }

    /**
     * One object per loaded driver: {@code Name}, {@code PluginID}, {@code Version}, {@code Provider},
     * {@code Path} (the plugin JAR), {@code Health} (healthy|unhealthy|undetected), {@code HealthDescription},
     * {@code TaskConfigSchema} and {@code PluginConfigSchema} (the declared schemas, {@code ConfigSchema.describe()};
     * null when the driver declares none).
     */
    private void plugins(ApiRequest req) throws Exception {
        req.respond(200, drivers.get().stream().map(SystemHandler::plugin).toList());
    }

    private static Map<String, Object> plugin(DriverInfo d) {
        Map<String, Object> m = new LinkedHashMap<>();
        m.put("Name", d.name());
        m.put("PluginID", d.pluginId());
        m.put("Version", d.version());
        m.put("Provider", d.provider());
        m.put("Path", d.pluginPath() == null ? "" : d.pluginPath().toString());
        m.put("Health", d.health() == null ? "undetected" : d.health().state().wireName());
        m.put("HealthDescription", d.health() == null ? "" : d.health().description());
        m.put("TaskConfigSchema", d.schemas().task().map(ConfigSchema::describe).orElse(null));
        m.put("PluginConfigSchema", d.schemas().plugin().map(ConfigSchema::describe).orElse(null));
        return m;
    }
}
