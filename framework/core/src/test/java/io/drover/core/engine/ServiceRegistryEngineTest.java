package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEventType;
import io.drover.core.service.ServiceRegistration;
import io.drover.core.state.AllocatedResources;
import io.drover.core.state.AllocationState;
import io.drover.process.ProcessLeakCheck;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.extension.ExtendWith;
import org.junit.jupiter.api.io.TempDir;

/**
 * Nomad's native service discovery through the real engine and raw_exec: a {@code provider = "nomad"} service is
 * registered while its task (or, for a group service, its allocation) runs, with Nomad's ID, the allocated port and
 * its host IP, interpolated name and tags, and removed when the task stops; a template reading
 * {@code nomadService}/{@code nomadServices} renders what is registered and renders again (its change_mode applied)
 * when that changes, and {@code nomadService count key name} chooses that many instances.
 */
@ExtendWith(ProcessLeakCheck.class)
class ServiceRegistryEngineTest {
    @TempDir
    Path dataDir;

    private static String sleep() {
        return """
                      config {
                        command = "sh"
                        args = ["-c", "while true; do sleep 0.05; done"]
                      }
                      env {
                        %s
                      }
            """.formatted(RawExecJobs.markerEnv());
    }

    private static String db(int count) {
        return """
                job "db" {
                  datacenters = ["dc7"]
                  group "g" {
                    count = %d
                    network {
                      port "db" {}
                    }
                    service {
                      provider = "nomad"
                      port = "db"
                    }
                    task "t" {
                      driver = "raw_exec"
                      service {
                        name = "db"
                        provider = "nomad"
                        port = "db"
                        tags = ["r${NOMAD_ALLOC_INDEX}", "${NOMAD_META_role}"]
                        check {
                          type = "tcp"
                          interval = "10s"
                          timeout = "2s"
                        }
                      }
                      meta {
                        role = "primary"
                      }
                %s
                    }
                  }
                }
                """.formatted(count, sleep());
    }

    private static String client() {
        return """
            job "client" {
              group "g" {
                task "t" {
                  driver = "raw_exec"
                  template {
                    data = "{{ range nomadService \\"db\\" }}{{ .Address }}:{{ .Port }} {{ .Tags }} {{ .Datacenter }}\\n{{ end }}"
                    destination = "local/db.txt"
                    change_mode = "restart"
                  }
                  template {
                    data = "{{ range nomadServices }}{{ .Name }} {{ .Tags }}\\n{{ end }}"
                    destination = "local/all.txt"
                    change_mode = "noop"
                  }
                  template {
                    data = "{{ range nomadService 1 (env \\"NOMAD_ALLOC_ID\\") \\"primary.db\\" }}{{ .Port }}\\n{{ end }}"
                    destination = "local/one.txt"
                    change_mode = "noop"
                  }
            %s
                }
              }
            }
            """.formatted(sleep());
    }

    private static String read(Path p) {
        try {
            return Files.exists(p) ? Files.readString(p) : "";
        } catch (java.io.IOException e) {
            return "";
        }
    }

    private static AllocationState stop(RawExecJobs jobs, String id) throws Exception {
        jobs.engine.stop(id);
        return jobs.engine.terminal(id).get(60, TimeUnit.SECONDS);
    }

    private static int port(AllocationState a) {
        return a.resources().ports().stream().filter(p -> p.label().equals("db"))
                .mapToInt(AllocatedResources.PortMapping::value).findFirst().orElseThrow();
    }

    @Test
    void aRunningTaskIsRegisteredAsNomadDoesAndRemovedWhenItStops() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            ServiceRegistry registry = jobs.engine.services();
            String id = jobs.engine.submit(RawExecJobs.parse(db(1))).get(0).id();
            RawExecJobs.await(() -> registry.all().size() == 2, "the group's and the task's service");
            AllocationState a = jobs.engine.allocation(id).orElseThrow();
            int port = port(a);

            List<ServiceRegistration> db = registry.named("default", "db");
            assertThat(db).hasSize(1);
            ServiceRegistration r = db.get(0);
            assertThat(r.id()).isEqualTo("_nomad-task-" + id + "-t-db-db");
            assertThat(r.address()).isEqualTo("127.0.0.1");
            assertThat(r.port()).isEqualTo(port).isPositive();
            assertThat(r.tags()).containsExactly("r0", "primary");
            assertThat(r.namespace()).isEqualTo("default");
            assertThat(r.datacenter()).isEqualTo("dc7");
            assertThat(r.jobId()).isEqualTo("db");
            assertThat(r.allocId()).isEqualTo(id);
            assertThat(r.nodeId()).isEqualTo("local");
            assertThat(r.createIndex()).isPositive();
            assertThat(r.modifyIndex()).isEqualTo(r.createIndex());

            List<ServiceRegistration> group = registry.named("default", "db-g");
            assertThat(group).as("a group service's default name is <job>-<group>").hasSize(1);
            assertThat(group.get(0).id()).isEqualTo("_nomad-task-" + id + "-group-g-db-g-db");
            assertThat(registry.named("other", "db")).isEmpty();
            assertThat(registry.named("*", "db")).hasSize(1);

            stop(jobs, id);
            RawExecJobs.await(() -> registry.all().isEmpty(), "the services to be removed at the stop");
        }
    }

    @Test
    void aTemplateRendersTheRegistryAndRendersAgainWhenItChanges() throws Exception {
        try (RawExecJobs jobs = new RawExecJobs(dataDir)) {
            String client = jobs.engine.submit(RawExecJobs.parse(client())).get(0).id();
            Path dir = AllocDirs.of(dataDir, client).task("t");
            RawExecJobs.await(() -> events(jobs, client, TaskEventType.STARTED) == 1, "the client's first run");
            assertThat(read(dir.resolve("local/db.txt"))).as("nothing registered yet").isEmpty();

            List<AllocationState> dbs = jobs.engine.submit(RawExecJobs.parse(db(2)));
            RawExecJobs.await(() -> read(dir.resolve("local/db.txt")).lines().count() == 2, "both instances");
            String expected = dbs.stream().map(a -> jobs.engine.allocation(a.id()).orElseThrow())
                    .sorted(java.util.Comparator.comparing(a -> "_nomad-task-" + a.id()))
                    .map(a -> "127.0.0.1:" + port(a) + " [primary r" + a.index() + "] dc7\n")
                    .reduce("", String::concat);
            RawExecJobs.await(() -> read(dir.resolve("local/db.txt")).equals(expected), "the instances, by ID");
            RawExecJobs.await(() -> read(dir.resolve("local/all.txt")).equals("db [primary r0 r1]\ndb-g []\n"),
                    "the list of services");
            RawExecJobs.await(() -> read(dir.resolve("local/one.txt")).lines().count() == 1, "a choice of one");
            RawExecJobs.await(() -> events(jobs, client, TaskEventType.RESTART_SIGNALED) >= 1,
                    "change_mode = restart applied");

            for (AllocationState a : dbs) {
                stop(jobs, a.id());
            }
            RawExecJobs.await(() -> jobs.engine.services().all().isEmpty(), "the stopped instances deregistered");
            RawExecJobs.await(() -> read(dir.resolve("local/db.txt")).isEmpty(), "the stopped instances gone: "
                    + read(dir.resolve("local/db.txt")) + " " + jobs.engine.allocation(client).orElseThrow());
            RawExecJobs.await(() -> read(dir.resolve("local/all.txt")).isEmpty(), "no service left");
            stop(jobs, client);
        }
    }

    private static long events(RawExecJobs jobs, String id, TaskEventType type) {
        return jobs.engine.allocation(id).orElseThrow().taskStates().get("t").events().stream()
                .filter(e -> e.type() == type).count();
    }
}
