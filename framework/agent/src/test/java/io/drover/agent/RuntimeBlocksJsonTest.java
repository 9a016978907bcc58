package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import com.fasterxml.jackson.databind.node.ObjectNode;
import org.junit.jupiter.api.Test;

/**
 * Meta, artifacts, templates and the group network over the API in Nomad's JSON shape: a job registered with them
 * is returned with them by {@code GET /v1/job/<id>} the way Nomad's Go api client reads them, and that returned
 * job registers again unchanged (the written shape is the read shape).
 */
class RuntimeBlocksJsonTest extends RunningAgentTest {
    private static final String JOB = """
            {"Job": {"ID": "rt-job", "Type": "service", "Meta": {"owner": "ops"},
              "TaskGroups": [{"Name": "g", "Count": 1, "Meta": {"tier": "front"},
                "Networks": [{"Mode": "host",
                  "ReservedPorts": [],
                  "DynamicPorts": [{"Label": "http", "Value": 0, "To": 0, "HostNetwork": "default"}]}],
                "Tasks": [{"Name": "web", "Driver": "mock", "Meta": {"version": "1.2"},
                  "Config": {"run_for": "1h"},
                  "Artifacts": [{"GetterSource": "/etc/hostname", "RelativeDest": "local/",
                                 "GetterMode": "any", "GetterOptions": {}, "GetterHeaders": {}}],
                  "Templates": [{"EmbeddedTmpl": "port={{ env \\"NOMAD_PORT_http\\" }}",
                                 "DestPath": "local/app.conf", "ChangeMode": "signal",
                                 "ChangeSignal": "SIGHUP", "Splay": 3000000000, "Perms": "0600"}]}]}]}}
            """;

    @Test
    void theRuntimeBlocksComeBackInNomadsShapeAndRegisterAgain() throws Exception {
        TestAgent.Resp r = api.call("PUT", "/v1/jobs", JOB);
        assertThat(r.status()).as(r.body()).isEqualTo(200);

        JsonNode job = api.get("/v1/job/rt-job").json();
        assertThat(job.path("Meta").path("owner").asText()).isEqualTo("ops");
        JsonNode g = job.path("TaskGroups").get(0);
        assertThat(g.path("Meta").path("tier").asText()).isEqualTo("front");
        JsonNode net = g.path("Networks").get(0);
        assertThat(net.path("Mode").asText()).isEqualTo("host");
        assertThat(net.path("DynamicPorts").get(0).path("Label").asText()).isEqualTo("http");
        JsonNode t = g.path("Tasks").get(0);
        assertThat(t.path("Meta").path("version").asText()).isEqualTo("1.2");
        JsonNode a = t.path("Artifacts").get(0);
        assertThat(a.path("GetterSource").asText()).isEqualTo("/etc/hostname");
        assertThat(a.path("RelativeDest").asText()).isEqualTo("local/");
        assertThat(a.path("GetterMode").asText()).isEqualTo("any");
        JsonNode tpl = t.path("Templates").get(0);
        assertThat(tpl.path("EmbeddedTmpl").asText()).isEqualTo("port={{ env \"NOMAD_PORT_http\" }}");
        assertThat(tpl.path("DestPath").asText()).isEqualTo("local/app.conf");
        assertThat(tpl.path("ChangeMode").asText()).isEqualTo("signal");
        assertThat(tpl.path("ChangeSignal").asText()).isEqualTo("SIGHUP");
        assertThat(tpl.path("Splay").asLong()).isEqualTo(3_000_000_000L);
        assertThat(tpl.path("Perms").asText()).isEqualTo("0600");
        assertThat(tpl.path("LeftDelim").asText()).isEqualTo("{{");
        assertThat(tpl.path("Envvars").asBoolean()).isFalse();

        // what the API wrote reads back as the same job (its server-side fields are unset or known)
        ObjectMapper mapper = new ObjectMapper();
        ObjectNode again = mapper.createObjectNode();
        ObjectNode body = ((ObjectNode) job).deepCopy();
        for (String serverSide : new String[] {"Namespace", "Region", "ParentID", "Priority", "NodePool", "Status",
                "StatusDescription", "Stop", "Stable", "Version", "SubmitTime", "CreateIndex", "ModifyIndex",
                "JobModifyIndex"}) {
            body.remove(serverSide);
        }
        again.set("Job", body);
        TestAgent.Resp second = api.call("PUT", "/v1/jobs", mapper.writeValueAsString(again));
        assertThat(second.status()).as(second.body()).isEqualTo(200);
        JsonNode back = api.get("/v1/job/rt-job").json();
        assertThat(back.path("TaskGroups")).isEqualTo(job.path("TaskGroups"));
    }
}
