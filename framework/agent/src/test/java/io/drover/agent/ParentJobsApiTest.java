package io.drover.agent;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.net.URLEncoder;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.Base64;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Periodic and parameterized jobs over HTTP on a real agent with the mock driver plugin: Nomad's dispatch and
 * periodic-force routes, the children, the payload file and meta in a child's task, every refused dispatch in
 * Nomad's words, and the parents coming back after a restart.
 */
class ParentJobsApiTest {
    static final String DISPATCHABLE = hcl("""
            job "render" {
              type = "batch"
              meta {
                colour = "blue"
                size   = "s"
              }
              parameterized {
                payload       = "optional"
                meta_required = ["who"]
                meta_optional = ["colour"]
              }
              group "g" {
                task "t" {
                  driver = "mock"
                  dispatch_payload {
                    file = "input/payload.txt"
                  }
                  config {
                    run_for       = "10ms"
                    stdout_string = "${NOMAD_META_who} ${NOMAD_META_colour} ${NOMAD_META_size} ${NOMAD_JOB_PARENT_ID}"
                  }
                }
              }
            }
            """);

    static final String PERIODIC = hcl("""
            job "tick" {
              type = "batch"
              periodic {
                cron = "0 0 1 1 * 2099"
              }
              group "g" {
                task "t" {
                  driver = "mock"
                  config {
                    run_for = "10ms"
                  }
                }
              }
            }
            """);

    @TempDir
    Path tmp;

    static String hcl(String text) {
        return TestAgent.JSON.createObjectNode().put("JobHCL", text).toString();
    }

    static String enc(String id) {
        return URLEncoder.encode(id, StandardCharsets.UTF_8);
    }

    private static String dispatchBody(String payload, String... meta) {
        var body = TestAgent.JSON.createObjectNode();
        if (payload != null) {
            body.put("Payload", Base64.getEncoder().encodeToString(payload.getBytes(StandardCharsets.UTF_8)));
        }
        var m = body.putObject("Meta");
        for (int i = 0; i < meta.length; i += 2) {
            m.put(meta[i], meta[i + 1]);
        }
        return body.toString();
    }

    @Test
    void aDispatchRunsAChildWithThePayloadFileAndTheMergedMeta() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp reg = api.call("PUT", "/v1/jobs", DISPATCHABLE);
            assertThat(reg.status()).as(reg.body()).isEqualTo(200);
            assertThat(reg.json().path("Allocations")).isEmpty();
            JsonNode parent = api.get("/v1/job/render").json();
            assertThat(parent.path("Status").asText()).isEqualTo("running");
            assertThat(parent.path("ParameterizedJob").path("MetaRequired").get(0).asText()).isEqualTo("who");
            assertThat(parent.path("Periodic").isNull()).isTrue();

            TestAgent.Resp r = api.call("POST", "/v1/job/render/dispatch", dispatchBody("hello payload",
                    "who", "ann", "colour", "red"));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            String child = r.json().path("DispatchedJobID").asText();
            assertThat(child).matches("render/dispatch-\\d{10}-[0-9a-f]{8}");
            assertThat(r.json().path("EvalID").asText()).isNotEmpty();
            assertThat(r.json().path("JobCreateIndex").asLong()).isPositive();

            JsonNode job = api.get("/v1/job/" + enc(child)).json();
            assertThat(job.path("ParentID").asText()).isEqualTo("render");
            assertThat(job.path("Dispatched").asBoolean()).isTrue();
            JsonNode allocs = api.get("/v1/job/" + enc(child) + "/allocations").json();
            assertThat(allocs).hasSize(1);
            String alloc = allocs.get(0).path("ID").asText();
            Await.until("child complete", () -> api.alloc(alloc).terminal());
            Path allocDir = tmp.resolve("data/alloc").resolve(alloc);
            assertThat(Files.readString(allocDir.resolve("t/local/input/payload.txt"))).isEqualTo("hello payload");
            assertThat(Files.readString(allocDir.resolve("alloc/logs/t.stdout.0"))).isEqualTo("ann red s render");

            JsonNode list = api.get("/v1/jobs").json();
            assertThat(list).extracting(j -> j.path("ID").asText()).containsExactly("render", child);
            JsonNode stub = list.get(0);
            assertThat(stub.path("JobSummary").path("Children").path("Dead").asLong()).isEqualTo(1);
            assertThat(list.get(1).path("ParentID").asText()).isEqualTo("render");
            assertThat(api.get("/v1/job/render/summary").json().path("Children").path("Dead").asLong()).isEqualTo(1);
        }
    }

    @Test
    void aDispatchWithoutPayloadWritesNoFile() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            assertThat(api.call("PUT", "/v1/jobs", DISPATCHABLE).status()).isEqualTo(200);
            TestAgent.Resp r = api.call("PUT", "/v1/job/render/dispatch", dispatchBody(null, "who", "bo"));
            assertThat(r.status()).as(r.body()).isEqualTo(200);
            String child = r.json().path("DispatchedJobID").asText();
            String alloc = api.get("/v1/job/" + enc(child) + "/allocations").json().get(0).path("ID").asText();
            Await.until("child complete", () -> api.alloc(alloc).terminal());
            assertThat(api.alloc(alloc).clientStatus().name()).isEqualTo("COMPLETE");
            assertThat(tmp.resolve("data/alloc").resolve(alloc).resolve("t/local/input/payload.txt")).doesNotExist();
        }
    }

    @Test
    void everyRefusedDispatchIsOneLineInNomadsWordsAndPlacesNothing() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            assertThat(api.call("PUT", "/v1/jobs", DISPATCHABLE).status()).isEqualTo(200);
            assertThat(api.call("PUT", "/v1/jobs", PERIODIC).status()).isEqualTo(200);
            assertThat(api.call("PUT", "/v1/jobs", hcl("""
                    job "needs" {
                      type = "batch"
                      parameterized {
                        payload = "required"
                      }
                      group "g" {
                        task "t" {
                          driver = "mock"
                        }
                      }
                    }
                    """)).status()).isEqualTo(200);
            assertThat(api.call("PUT", "/v1/jobs", hcl("""
                    job "never" {
                      type = "batch"
                      parameterized {
                        payload = "forbidden"
                      }
                      group "g" {
                        task "t" {
                          driver = "mock"
                        }
                      }
                    }
                    """)).status()).isEqualTo(200);
            record Case(String job, String body, int status, String error) {}
            for (Case c : new Case[] {
                new Case("render", dispatchBody(null), 400, "Dispatch did not provide required meta keys: [who]"),
                new Case("render", dispatchBody(null, "who", "a", "shape", "x", "age", "3"), 400,
                        "Dispatch request included unpermitted metadata keys: [age shape]"),
                new Case("render", dispatchBody("x".repeat(16 * 1024 + 1), "who", "a"), 400,
                        "Payload exceeds maximum size; 16385 > 16384"),
                new Case("render", "{\"Payload\": \"not base64!\"}", 400, "Payload must be base64"),
                new Case("render", "[1]", 400, "request body must be Nomad's dispatch request"),
                new Case("needs", dispatchBody(null), 400, "Payload is not provided but required by parameterized job"),
                new Case("never", dispatchBody("x"), 400, "Payload provided but forbidden by parameterized job"),
                new Case("tick", dispatchBody(null), 400, "Specified job \"tick\" is not a parameterized job"),
                new Case("nope", dispatchBody(null), 404, "parameterized job not found"),
            }) {
                TestAgent.Resp r = api.call("POST", "/v1/job/" + c.job() + "/dispatch", c.body());
                assertThat(r.status()).as(c.toString() + " " + r.body()).isEqualTo(c.status());
                assertThat(r.error()).as(c.toString()).startsWith(c.error()).doesNotContain("\n");
            }
            assertThat(api.get("/v1/jobs").json()).hasSize(4); // no child was made
            TestAgent.Resp stopped = api.call("DELETE", "/v1/job/render", null);
            assertThat(stopped.status()).isEqualTo(200);
            TestAgent.Resp r = api.call("POST", "/v1/job/render/dispatch", dispatchBody(null, "who", "a"));
            assertThat(r.status()).isEqualTo(400);
            assertThat(r.error()).isEqualTo("Specified job \"render\" is stopped");
            assertThat(api.call("POST", "/v1/job/render/periodic/force", null).error())
                    .isEqualTo("can't force launch non-periodic job");
        }
    }

    @Test
    void aForcedLaunchMakesAPeriodicChildAndParentsComeBackAfterARestart() throws Exception {
        String forced;
        String dispatched;
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp reg = api.call("PUT", "/v1/jobs", PERIODIC);
            assertThat(reg.status()).as(reg.body()).isEqualTo(200);
            JsonNode parent = api.get("/v1/job/tick").json();
            assertThat(parent.path("Periodic").path("Spec").asText()).isEqualTo("0 0 1 1 * 2099");
            assertThat(parent.path("Periodic").path("Enabled").asBoolean()).isTrue();
            assertThat(parent.path("Status").asText()).isEqualTo("running");
            assertThat(api.get("/v1/job/tick/allocations").json()).isEmpty();

            TestAgent.Resp f = api.call("POST", "/v1/job/tick/periodic/force", null);
            assertThat(f.status()).as(f.body()).isEqualTo(200);
            assertThat(f.json().path("EvalID").asText()).isNotEmpty();
            JsonNode list = api.get("/v1/jobs?prefix=tick/").json();
            assertThat(list).hasSize(1);
            forced = list.get(0).path("ID").asText();
            assertThat(forced).matches("tick/periodic-\\d{10}");
            assertThat(list.get(0).path("ParentID").asText()).isEqualTo("tick");
            String alloc = api.get("/v1/job/" + enc(forced) + "/allocations").json().get(0).path("ID").asText();
            Await.until("forced child complete", () -> api.alloc(alloc).terminal());

            assertThat(api.call("PUT", "/v1/jobs", DISPATCHABLE).status()).isEqualTo(200);
            TestAgent.Resp d = api.call("POST", "/v1/job/render/dispatch", dispatchBody(null, "who", "x"));
            dispatched = d.json().path("DispatchedJobID").asText();
        }
        try (TestAgent api = TestAgent.start(tmp)) {
            JsonNode list = api.get("/v1/jobs").json();
            assertThat(list).extracting(j -> j.path("ID").asText())
                    .containsExactlyInAnyOrder("tick", forced, "render", dispatched);
            JsonNode parent = api.get("/v1/job/tick").json();
            assertThat(parent.path("Periodic").path("Spec").asText()).isEqualTo("0 0 1 1 * 2099");
            assertThat(parent.path("Status").asText()).isEqualTo("running");
            assertThat(api.get("/v1/job/" + enc(forced)).json().path("ParentID").asText()).isEqualTo("tick");
            assertThat(api.get("/v1/job/" + enc(dispatched)).json().path("ParentID").asText()).isEqualTo("render");
            assertThat(api.get("/v1/job/render").json().path("ParameterizedJob").path("Payload").asText())
                    .isEqualTo("optional");
            TestAgent.Resp d = api.call("POST", "/v1/job/render/dispatch", dispatchBody(null, "who", "y"));
            assertThat(d.status()).as(d.body()).isEqualTo(200);
        }
    }

    @Test
    void aPeriodicJobLaunchesChildrenOnItsOwnSchedule() throws Exception {
        try (TestAgent api = TestAgent.start(tmp)) {
            TestAgent.Resp reg = api.call("PUT", "/v1/jobs", hcl("""
                    job "every" {
                      type = "batch"
                      periodic {
                        cron = "* * * * * * *"
                      }
                      group "g" {
                        task "t" {
                          driver = "mock"
                          config {
                            run_for = "1ms"
                          }
                        }
                      }
                    }
                    """));
            assertThat(reg.status()).as(reg.body()).isEqualTo(200);
            Await.until("two launches", () -> {
                try {
                    return api.get("/v1/jobs?prefix=every/periodic-").json().size() >= 2;
                } catch (Exception e) {
                    throw new AssertionError(e);
                }
            });
            assertThat(api.call("DELETE", "/v1/job/every", null).status()).isEqualTo(200);
            assertThat(api.agent.parentJobs().tracks("every")).isFalse();
        }
    }
}
