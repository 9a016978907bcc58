package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.spec.Task;
import io.drover.core.spec.TaskGroup;
import java.nio.charset.StandardCharsets;
import org.junit.jupiter.api.Test;

/**
 * Artifacts, templates, the group network and meta in Nomad's API JSON (as {@code nomad job run -output} writes
 * them, with its "unset" values for what the jobspec left out) build the same records as their HCL twin.
 */
class JsonRuntimeBlocksTest {
    private static final String HCL = """
            job "web" {
              meta { owner = "ops" }
              group "g" {
                meta { tier = "front" }
                network {
                  port "http" {}
                  port "admin" { static = 9090 }
                }
                task "t" {
                  driver = "raw_exec"
                  meta { version = "1.2" }
                  config { command = "sh" }
                  artifact {
                    source = "https://example.com/app.tar.gz"
                    destination = "local/app"
                    mode = "dir"
                    options { checksum = "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa" }
                    headers { X-Token = "t" }
                  }
                  template {
                    data = "port={{ env \\"NOMAD_PORT_http\\" }}"
                    destination = "local/app.conf"
                    change_mode = "signal"
                    change_signal = "SIGHUP"
                    splay = "3s"
                    perms = "0600"
                  }
                  template {
                    source = "local/app/env.tpl"
                    destination = "secrets/app.env"
                    env = true
                    left_delimiter = "[["
                    right_delimiter = "]]"
                  }
                }
              }
            }
            """;

    private static final String JSON = """
            {"Job": {"ID": "web", "Name": "web", "Type": "service", "Meta": {"owner": "ops"}, "Datacenters": ["*"],
             "TaskGroups": [{"Name": "g", "Count": 1, "Meta": {"tier": "front"},
               "Networks": [{"Mode": "", "Device": "", "CIDR": "", "IP": "", "Hostname": "", "MBits": 0,
                 "DNS": null,
                 "ReservedPorts": [{"Label": "admin", "Value": 9090, "To": 0, "HostNetwork": "default"}],
                 "DynamicPorts": [{"Label": "http", "Value": 0, "To": 0, "HostNetwork": "default"}]}],
               "Tasks": [{"Name": "t", "Driver": "raw_exec", "User": "", "Config": {"command": "sh"},
                 "Meta": {"version": "1.2"},
                 "Artifacts": [{"GetterSource": "https://example.com/app.tar.gz",
                   "GetterOptions": {"checksum": "sha256:aaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaaa"}, "GetterHeaders": {"X-Token": "t"},
                   "GetterMode": "dir", "RelativeDest": "local/app", "GetterInsecure": false, "Chown": false}],
                 "Templates": [
                   {"SourcePath": "", "DestPath": "local/app.conf", "EmbeddedTmpl": "port={{ env \\"NOMAD_PORT_http\\" }}",
                    "ChangeMode": "signal", "ChangeSignal": "SIGHUP", "ChangeScript": null, "Splay": 3000000000,
                    "Perms": "0600", "Uid": null, "Gid": null, "LeftDelim": "{{", "RightDelim": "}}",
                    "Envvars": false, "VaultGrace": 0, "Wait": null, "ErrMissingKey": false, "Once": false},
                   {"SourcePath": "local/app/env.tpl", "DestPath": "secrets/app.env", "EmbeddedTmpl": "",
                    "ChangeMode": "restart", "ChangeSignal": "", "Splay": 5000000000, "Perms": "0644",
                    "LeftDelim": "[[", "RightDelim": "]]", "Envvars": true, "ErrMissingKey": false}]}]}]}}
            """;

    private static Job parse(String name, String text) throws Exception {
        return JobFileParser.parse(name, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void theRuntimeBlocksInJsonEqualTheirHcl() throws Exception {
        Job hcl = parse("web.hcl", HCL);
        Job json = parse("web.json", JSON);
        assertThat(json.runtime().meta()).isEqualTo(hcl.runtime().meta());
        TaskGroup gh = hcl.groups().get(0);
        TaskGroup gj = json.groups().get(0);
        assertThat(gj.runtime().meta()).isEqualTo(gh.runtime().meta());
        assertThat(gj.runtime().network().mode()).isEqualTo(gh.runtime().network().mode());
        assertThat(gj.runtime().network().ports()).containsExactlyInAnyOrderElementsOf(gh.runtime().network().ports());
        Task th = gh.tasks().get(0);
        Task tj = gj.tasks().get(0);
        assertThat(tj.runtime().meta()).isEqualTo(th.runtime().meta());
        assertThat(tj.runtime().artifacts()).isEqualTo(th.runtime().artifacts());
        assertThat(tj.runtime().templates()).isEqualTo(th.runtime().templates());
        assertThat(tj.runtime().templates()).hasSize(2);
    }

    @Test
    void waitIsReadFromNanoseconds() throws Exception {
        String withWait = JSON.replace("\"Wait\": null", "\"Wait\": {\"Min\": 2000000000, \"Max\": 10000000000}");
        var t = parse("web.json", withWait).groups().get(0).tasks().get(0).runtime().templates().get(0);
        assertThat(t.waitMin()).isEqualTo(java.time.Duration.ofSeconds(2));
        assertThat(t.waitMax()).isEqualTo(java.time.Duration.ofSeconds(10));
        String bad = JSON.replace("\"Wait\": null", "\"Wait\": {\"Min\": 2000000000, \"Max\": 1000000000}");
        assertThatThrownBy(() -> parse("web.json", bad)).isInstanceOf(JobFileException.class)
                .hasMessageContaining("Max").hasMessageContaining("must not be less than min");
    }

    @Test
    void aTemplateKeyDroverRefusesIsNamedTheJsonWay() {
        String withUid = JSON.replace("\"Uid\": null", "\"Uid\": \"root\"");
        assertThatThrownBy(() -> parse("web.json", withUid)).isInstanceOf(JobFileException.class)
                .hasMessageContaining("Uid");
        String bad = JSON.replace("\"ChangeMode\": \"signal\"", "\"ChangeMode\": \"sometimes\"");
        assertThatThrownBy(() -> parse("web.json", bad)).isInstanceOf(JobFileException.class)
                .hasMessageContaining("ChangeMode").hasMessageContaining("sometimes");
    }

    /** uid, gid, once and change_script in Nomad's JSON (Timeout in ns) are the HCL's. */
    @Test
    void uidGidOnceAndChangeScriptInJsonEqualTheirHcl() throws Exception {
        String hcl = HCL.replace("change_mode = \"signal\"\n", "change_mode = \"script\"\n"
                + "uid = 1000\n gid = 0\n change_script {\n command = \"/bin/reload\"\n args = [\"-q\"]\n"
                + " timeout = \"20s\"\n fail_on_error = true\n }\n").replace("change_signal = \"SIGHUP\"\n", "");
        String json = JSON.replace("\"ChangeMode\": \"signal\", \"ChangeSignal\": \"SIGHUP\", \"ChangeScript\": null",
                "\"ChangeMode\": \"script\", \"ChangeSignal\": \"\", \"ChangeScript\": {\"Command\": \"/bin/reload\", "
                        + "\"Args\": [\"-q\"], \"Timeout\": 20000000000, \"FailOnError\": true}")
                .replace("\"Uid\": null, \"Gid\": null", "\"Uid\": 1000, \"Gid\": 0");
        var th = parse("web.hcl", hcl).groups().get(0).tasks().get(0).runtime().templates().get(0);
        var tj = parse("web.json", json).groups().get(0).tasks().get(0).runtime().templates().get(0);
        assertThat(tj).isEqualTo(th);
        assertThat(th.uid()).isEqualTo(1000);
        assertThat(th.gid()).isZero();
        assertThat(th.changeScript()).isEqualTo(new io.drover.core.spec.ChangeScript("/bin/reload",
                java.util.List.of("-q"), java.time.Duration.ofSeconds(20), true));
        assertThat(th.once()).isFalse();
    }
}
