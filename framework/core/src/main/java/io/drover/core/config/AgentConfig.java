package io.drover.core.config;

import java.nio.file.Path;
import java.util.Map;

/**
 * The agent config (contract §4). Immutable.
 *
 * @param dataDir null when unset ({@code drover run} then uses a temp dir)
 * @param pluginDir null when unset (the launcher's default, {@code plugins/dist})
 * @param plugins each {@code plugin "name" { config { ... } }} block: driver name to its config map
 * @param aclToken {@code acl { token = "..." }}: when set, every HTTP API request must carry it; null when unset;
 *     otherwise it must pass {@link AclToken#problem} (no empty, blank or short token)
 * @param source the file and the lines of the keys it sets ({@link ConfigSource#NONE} for defaults)
 * @param http the {@code http} block (allowed Host names); kept last so that older constructor calls only need an
 *     overload
 */
public record AgentConfig(
        Path dataDir,
        Path pluginDir,
        String logLevel,
        String bindAddr,
        int httpPort,
        ClientConfig client,
        Map<String, Map<String, Object>> plugins,
        String aclToken,
        ConfigSource source,
        HttpConfig http) {

    public AgentConfig {
        source = source == null ? ConfigSource.NONE : source;
        http = http == null ? HttpConfig.defaults() : http;
        plugins = Map.copyOf(plugins);
        String badToken = AclToken.problem(aclToken);
        if (badToken != null) { // the parser names the file and line first; this guards programmatic configs
            throw new IllegalArgumentException("acl > token: " + badToken);
        }
    }

    /** A config with the default {@code http} block. */
    public AgentConfig(Path dataDir, Path pluginDir, String logLevel, String bindAddr, int httpPort,
            ClientConfig client, Map<String, Map<String, Object>> plugins, String aclToken, ConfigSource source) {
        this(dataDir, pluginDir, logLevel, bindAddr, httpPort, client, plugins, aclToken, source, null);
    }

    /** A config that comes from no file ({@link ConfigSource#NONE}). */
    public AgentConfig(Path dataDir, Path pluginDir, String logLevel, String bindAddr, int httpPort,
            ClientConfig client, Map<String, Map<String, Object>> plugins, String aclToken) {
        this(dataDir, pluginDir, logLevel, bindAddr, httpPort, client, plugins, aclToken, ConfigSource.NONE);
    }

    /** A config without an API token (the constructor callers had before {@code acl} existed). */
    public AgentConfig(Path dataDir, Path pluginDir, String logLevel, String bindAddr, int httpPort,
            ClientConfig client, Map<String, Map<String, Object>> plugins) {
        this(dataDir, pluginDir, logLevel, bindAddr, httpPort, client, plugins, null);
    }

    /** Like the record's, with the token redacted: configs end up in logs. */
    @Override
    public String toString() {
        return "AgentConfig[dataDir=" + dataDir + ", pluginDir=" + pluginDir + ", logLevel=" + logLevel
                + ", bindAddr=" + bindAddr + ", httpPort=" + httpPort + ", client=" + client + ", plugins="
                + plugins.keySet() + ", aclToken=" + (aclToken == null ? "null" : "<redacted>") + ", source="
                + source.file() + ", http=" + http + "]";
    }

    public static AgentConfig defaults() {
        return new AgentConfig(null, null, "INFO", "127.0.0.1", 4747, ClientConfig.defaults(), Map.of(), null,
                ConfigSource.NONE, HttpConfig.defaults());
    }
}
