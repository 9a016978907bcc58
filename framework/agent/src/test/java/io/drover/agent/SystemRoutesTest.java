package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;

class SystemRoutesTest extends RunningAgentTest {
    @Test
    void gcRequestRunsTheAgentsGcHook() throws Exception {
        assertThat(api.call("PUT", "/v1/system/gc", null).status()).isEqualTo(200);
        assertThat(api.call("POST", "/v1/system/gc", "").status()).isEqualTo(200);
        assertThat(api.gcRequests.get()).isEqualTo(2);
        assertThat(api.get("/v1/system/gc").status()).isEqualTo(405);
    }

    @Test
    void pluginsListTheLoadedMockDriverWithItsHealthAndJar() throws Exception {
        JsonNode plugins = api.get("/v1/plugins").json();
        assertThat(plugins).hasSize(1);
        JsonNode mock = plugins.get(0);
        assertThat(mock.path("Name").asText()).isEqualTo("mock");
        assertThat(mock.path("Version").asText()).isNotEmpty();
        assertThat(mock.path("Health").asText()).isEqualTo("healthy");
        assertThat(mock.path("Path").asText()).endsWith(".jar");
    }

    @Test
    void pluginsShowEachDriversDeclaredSchemas() throws Exception {
        JsonNode mock = api.get("/v1/plugins").json().get(0);
        JsonNode runFor = mock.path("TaskConfigSchema").get(0);
        assertThat(runFor.path("name").asText()).isEqualTo("run_for");
        assertThat(runFor.path("kind").asText()).isEqualTo("attribute");
        assertThat(runFor.path("type").asText()).isEqualTo("duration");
        assertThat(runFor.path("required").asBoolean()).isFalse();
        assertThat(runFor.path("description").asText()).isEqualTo("how long the task runs before it exits by itself");
        assertThat(mock.path("TaskConfigSchema")).hasSize(16);
        assertThat(mock.path("PluginConfigSchema").isArray()).isTrue();
        assertThat(mock.path("PluginConfigSchema")).isEmpty();
    }

    @Test
    void healthAnswersInNomadsShape() throws Exception {
        TestAgent.Resp r = api.get("/v1/agent/health");
        assertThat(r.status()).isEqualTo(200);
        assertThat(r.json().path("client").path("ok").asBoolean()).isTrue();
    }
}
