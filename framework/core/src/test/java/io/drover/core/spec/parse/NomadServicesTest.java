package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.core.spec.Job;
import io.drover.core.spec.TaskGroup;
import java.nio.charset.StandardCharsets;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * {@code service} blocks with {@code provider = "nomad"} are kept in Nomad's API shape ({@code Services}: Name,
 * PortLabel, Tags, AddressMode, Provider, Checks kept), from HCL and from Nomad's JSON alike; a port label that
 * is not one of the group network's is Nomad's error; bad values are reported all at once.
 */
class NomadServicesTest {
    static final String HCL = """
            job "j" {
              group "g" {
                network {
                  port "http" {}
                }
                service {
                  provider = "nomad"
                  name     = "web"
                  port     = "http"
                  tags     = ["a", "b"]
                  address_mode = "host"
                  check {
                    type     = "http"
                    path     = "/health"
                    interval = "10s"
                    timeout  = "2s"
                  }
                }
                task "t" {
                  driver = "mock"
                  service {
                    provider = "nomad"
                    port     = 8080
                  }
                }
              }
            }
            """;

    static Job parse(String name, String text) throws JobFileException {
        return JobFileParser.parse(name, text.getBytes(StandardCharsets.UTF_8));
    }

    @Test
    void nomadServicesAreKeptInNomadsApiShape() throws Exception {
        TaskGroup g = parse("j.hcl", HCL).groups().get(0);
        assertThat(g.cluster().get("Services")).isEqualTo(List.of(Map.of("Provider", "nomad", "Name", "web",
                "PortLabel", "http", "Tags", List.of("a", "b"), "AddressMode", "host", "Checks", List.of(Map.of(
                        "type", "http", "path", "/health", "interval", "10s", "timeout", "2s")))));
        assertThat(g.tasks().get(0).cluster().get("Services")).isEqualTo(List.of(Map.of("Provider", "nomad",
                "PortLabel", "8080")));
    }

    @Test
    void nomadsJsonSpellingGivesTheSameServices() throws Exception {
        String json = """
                {"Job": {"ID": "j", "TaskGroups": [{"Name": "g",
                  "Networks": [{"Mode": "host", "DynamicPorts": [{"Label": "http", "Value": 0, "To": 0}]}],
                  "Services": [{"Name": "web", "PortLabel": "http", "Provider": "nomad", "Tags": ["a", "b"],
                    "AddressMode": "host", "Address": "", "EnableTagOverride": false, "Checks": null,
                    "OnUpdate": "require_healthy"}],
                  "Tasks": [{"Name": "t", "Driver": "mock"}]}]}}
                """;
        TaskGroup g = parse("j.json", json).groups().get(0);
        assertThat(g.cluster().get("Services")).isEqualTo(List.of(Map.of("Name", "web", "PortLabel", "http",
                "Provider", "nomad", "Tags", List.of("a", "b"), "AddressMode", "host")));
    }

    @Test
    void anUnknownPortLabelAndBadValuesAreReportedAllAtOnce() {
        String hcl = """
                job "j" {
                  group "g" {
                    network {
                      port "http" {}
                    }
                    service {
                      provider = "nomad"
                      name = "web"
                      port = "admin"
                    }
                    task "t" {
                      driver = "mock"
                      service {
                        provider = "nomad"
                        name = "api"
                        port = "admin"
                        tags = "x"
                        address_mode = "nat"
                      }
                    }
                  }
                }
                """;
        assertThatThrownBy(() -> parse("bad.hcl", hcl)).isInstanceOfSatisfying(JobFileException.class, e ->
                assertThat(e.problems().stream().map(Throwable::getMessage).toList()).containsExactlyInAnyOrder(
                        "bad.hcl:17: job \"j\" > group \"g\" > task \"t\" > service > tags: must be a list of "
                                + "strings, found a string",
                        "bad.hcl:18: job \"j\" > group \"g\" > task \"t\" > service > address_mode: unknown "
                                + "address_mode \"nat\" (auto, host, alloc or driver)",
                        "bad.hcl:2: job \"j\" > group \"g\" > service: port label \"admin\" referenced by "
                                + "services web does not exist"));
        String onlyPorts = hcl.replace("tags = \"x\"", "").replace("address_mode = \"nat\"", "");
        assertThatThrownBy(() -> parse("bad.hcl", onlyPorts)).isInstanceOfSatisfying(JobFileException.class, e ->
                assertThat(e.problems().stream().map(Throwable::getMessage).toList()).containsExactly(
                        "bad.hcl:2: job \"j\" > group \"g\" > service: port label \"admin\" referenced by "
                                + "services api, web does not exist"));
    }
}
