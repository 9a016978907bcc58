package io.drover.core.spec.parse;

import static io.drover.core.spec.parse.JobFileParserTest.resource;
import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The JSON front end (Nomad's API shape) builds the same records as the HCL one. */
class JsonJobTwinTest {

    /** The job without what must differ between two files: the source name and the lines. */
    static Job comparable(Job job) {
        List<TaskGroup> groups = job.groups().stream().map(g -> new TaskGroup(g.name(), g.count(), g.restart(),
                g.maxRuntime(), g.tasks().stream().map(JsonJobTwinTest::comparable).toList(), 0)).toList();
        return new Job(job.id(), job.name(), job.type(), job.datacenters(), groups, "");
    }

    private static Task comparable(Task t) {
        return new Task(t.name(), t.driver(), t.config(), t.env(), t.leader(), t.lifecycle(), t.killTimeout(),
                t.killSignal(), t.shutdownDelay(), t.maxRuntime(), t.logs(), t.restart(), 0);
    }

    @Test
    void theContractExampleInJsonEqualsItsHcl() throws Exception {
        Job hcl = JobFileParser.parse("example.hcl", resource("contract_example.hcl"));
        Job json = JobFileParser.parse("example.json", resource("contract_example.json"));

        assertThat(comparable(json)).isEqualTo(comparable(hcl));
        assertThat(json.source()).isEqualTo("example.json");
        assertThat(json.groups().get(0).tasks().get(0).line()).isEqualTo(13);
        assertThat(json.groups().get(0).tasks().get(0).config().keySet()).containsExactly("command", "args");
    }

    @Test
    void aBareJobObjectAndAnUnwrappedSeedParseToo() throws Exception {
        String bare = """
                {"ID": "example", "Datacenters": ["dc1"], "Type": "batch",
                 "TaskGroups": [{"Name": "test-group", "Tasks": [
                   {"Name": "test-task", "Driver": "raw_exec", "Config": {"command": "echo", "args": ["foo"]}},
                   {"Name": "poststop", "Driver": "raw_exec", "Lifecycle": {"Hook": "poststop", "Sidecar": false},
                    "Config": {"command": "echo", "args": ["bar"]}}]}]}
                """;
        Job json = JobFileParser.parse("seed.json", bare.getBytes(StandardCharsets.UTF_8));
        Job hcl = JobFileParser.parse("seed.hcl", JobFileParserTest.seedJobSpec());

        assertThat(comparable(json)).isEqualTo(comparable(hcl));
    }

    /**
     * The seed as {@code nomad job run -output} writes it: every field the jobspec left out is there with Nomad's
     * "unset" value (null, "", 0, false, []). Those are dropped; a key Drover does not know with a real value is
     * still refused.
     */
    @Test
    void nomadsUnsetValuesInAnExportedJobAreIgnored() throws Exception {
        String exported = """
                {"Job": {"Region": null, "Namespace": null, "ID": "example", "Name": "example", "Type": "batch",
                 "Priority": null, "AllAtOnce": null, "Datacenters": ["dc1"], "NodePool": null, "Constraints": null,
                 "Affinities": null, "Spreads": null, "Update": null, "Multiregion": null, "Periodic": null,
                 "ParameterizedJob": null, "Dispatched": false, "DispatchIdempotencyToken": null, "Payload": null,
                 "Meta": null, "ConsulToken": null, "VaultToken": null, "Stop": null, "ParentID": null,
                 "Status": null, "StatusDescription": null, "Stable": null, "Version": null, "SubmitTime": null,
                 "CreateIndex": null, "ModifyIndex": null, "JobModifyIndex": null,
                 "TaskGroups": [{"Name": "test-group", "Count": null, "Constraints": null, "Affinities": null,
                   "Spreads": null, "Volumes": null, "RestartPolicy": null, "ReschedulePolicy": null,
                   "EphemeralDisk": null, "Update": null, "Migrate": null, "Networks": null, "Meta": null,
                   "Services": null, "ShutdownDelay": null, "StopAfterClientDisconnect": null, "Scaling": null,
                   "Consul": null,
                   "Tasks": [
                   {"Name": "test-task", "Driver": "raw_exec", "User": "", "Lifecycle": null,
                    "Config": {"command": "echo", "args": ["foo"]}, "Constraints": null, "Affinities": null,
                    "Env": null, "Services": null, "Resources": null, "RestartPolicy": null, "Meta": null,
                    "KillTimeout": null, "LogConfig": null, "Artifacts": null, "Vault": null, "Templates": null,
                    "DispatchPayload": null, "VolumeMounts": null, "Leader": false, "ShutdownDelay": 0,
                    "KillSignal": "", "Kind": "", "ScalingPolicies": null, "Identities": []},
                   {"Name": "poststop", "Driver": "raw_exec", "User": "",
                    "Lifecycle": {"Hook": "poststop", "Sidecar": false},
                    "Config": {"command": "echo", "args": ["bar"]}, "Leader": false, "ShutdownDelay": 0,
                    "KillSignal": "", "Kind": ""}]}]}}
                """;
        Job json = JobFileParser.parse("seed.json", exported.getBytes(StandardCharsets.UTF_8));
        Job hcl = JobFileParser.parse("seed.hcl", JobFileParserTest.seedJobSpec());
        assertThat(comparable(json)).isEqualTo(comparable(hcl));

        // a key Drover does not have, with a real value, is still refused (User was one before session 9)
        String withKind = exported.replaceFirst("\"Kind\": \"\"", "\"Kind\": \"connect-proxy:web\"");
        assertThatThrownBy(() -> JobFileParser.parse("seed.json", withKind.getBytes(StandardCharsets.UTF_8)))
                .isInstanceOf(JobFileException.class)
                .hasMessageContaining("task \"test-task\" > Kind: unknown key");
    }

    @Test
    void jsonIsRecognisedByItsFirstCharacterWhateverTheName() throws Exception {
        Job job = JobFileParser.parse("job.nomad", resource("contract_example.json"));
        assertThat(job.id()).isEqualTo("example");
    }
}
