package io.drover.core.spec.parse;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.catchThrowable;

import io.drover.core.spec.DispatchPayload;
import io.drover.core.spec.Job;
import io.drover.core.spec.PayloadRule;
import java.nio.charset.StandardCharsets;
import java.util.List;
import org.junit.jupiter.api.Test;

/** {@code periodic}, {@code parameterized} and {@code dispatch_payload}, in HCL and Nomad's JSON, and bad input. */
class ScheduleKeysTest {
    private static Job parse(String file, String content) throws JobFileException {
        return JobFileParser.parse(file, content.getBytes(StandardCharsets.UTF_8));
    }

    private static List<String> problems(String file, String content) {
        Throwable thrown = catchThrowable(() -> parse(file, content));
        assertThat(thrown).isInstanceOf(JobFileException.class);
        List<String> all = ((JobFileException) thrown).problems().stream().map(JobFileException::getMessage).toList();
        all.forEach(p -> assertThat(p).doesNotContain("\n").startsWith(file + ":"));
        return all;
    }

    @Test
    void periodicBlockIsReadWithNomadsDefaults() throws Exception {
        Job job = parse("p.hcl", """
                job "report" {
                  type = "batch"
                  periodic {
                    crons            = ["*/15 * * * *", "@daily"]
                    time_zone        = "America/New_York"
                    prohibit_overlap = true
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);
        assertThat(job.launch().parent()).isTrue();
        assertThat(job.launch().periodic().specs()).containsExactly("*/15 * * * *", "@daily");
        assertThat(job.launch().periodic().timeZone()).isEqualTo("America/New_York");
        assertThat(job.launch().periodic().prohibitOverlap()).isTrue();
        assertThat(job.launch().periodic().enabled()).isTrue();
        Job single = parse("q.hcl", """
                job "r" {
                  type = "batch"
                  periodic {
                    cron = "@hourly"
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);
        assertThat(single.launch().periodic().specs()).containsExactly("@hourly");
        assertThat(single.launch().periodic().timeZone()).isEqualTo("UTC");
        assertThat(single.launch().periodic().prohibitOverlap()).isFalse();
    }

    @Test
    void parameterizedBlockAndDispatchPayloadAreRead() throws Exception {
        Job job = parse("d.hcl", """
                job "render" {
                  type = "batch"
                  parameterized {
                    payload       = "required"
                    meta_required = ["who"]
                    meta_optional = ["colour"]
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                      dispatch_payload {
                        file = "input/payload.txt"
                      }
                    }
                  }
                }
                """);
        assertThat(job.launch().parent()).isTrue();
        assertThat(job.launch().parameterized().payload()).isEqualTo(PayloadRule.REQUIRED);
        assertThat(job.launch().parameterized().metaRequired()).containsExactly("who");
        assertThat(job.launch().parameterized().metaOptional()).containsExactly("colour");
        assertThat(job.groups().get(0).tasks().get(0).runtime().dispatchPayload())
                .isEqualTo(new DispatchPayload("input/payload.txt", null));
        Job plain = parse("e.hcl", """
                job "plain" {
                  type = "batch"
                  parameterized {}
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);
        assertThat(plain.launch().parameterized().payload()).isEqualTo(PayloadRule.OPTIONAL);
    }

    @Test
    void nomadsJsonShapeGivesTheSameJob() throws Exception {
        Job hcl = parse("j.hcl", """
                job "j" {
                  type = "batch"
                  periodic {
                    cron             = "0 3 * * *"
                    prohibit_overlap = true
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """);
        Job json = parse("j.json", """
                {"Job": {"ID": "j", "Type": "batch",
                  "Periodic": {"Enabled": true, "Spec": "0 3 * * *", "SpecType": "cron", "ProhibitOverlap": true,
                               "TimeZone": "UTC"},
                  "ParameterizedJob": null, "Dispatched": false, "Payload": null,
                  "TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t", "Driver": "mock",
                                                         "DispatchPayload": null}]}]}}
                """);
        assertThat(json.launch()).isEqualTo(hcl.launch());
        Job dispatchable = parse("k.json", """
                {"Job": {"ID": "k", "Type": "batch",
                  "ParameterizedJob": {"Payload": "forbidden", "MetaRequired": ["a"], "MetaOptional": null},
                  "TaskGroups": [{"Name": "g", "Tasks": [{"Name": "t", "Driver": "mock",
                                                         "DispatchPayload": {"File": "in.json"}}]}]}}
                """);
        assertThat(dispatchable.launch().parameterized().payload()).isEqualTo(PayloadRule.FORBIDDEN);
        assertThat(dispatchable.launch().parameterized().metaRequired()).containsExactly("a");
        assertThat(dispatchable.groups().get(0).tasks().get(0).runtime().dispatchPayload().file()).isEqualTo("in.json");
    }

    @Test
    void everyBadKeyIsOneLineWithItsLineAndAllAreReportedAtOnce() {
        List<String> all = problems("bad.hcl", """
                job "bad" {
                  type = "service"
                  periodic {
                    cron      = "61 * * * *"
                    time_zone = "Mars/Olympus"
                    colour    = "red"
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                      dispatch_payload {
                        file = "../../../etc/passwd"
                      }
                    }
                  }
                }
                """);
        assertThat(all).containsExactly(
                "bad.hcl:6: job \"bad\" > periodic > colour: unknown key (allowed: cron, crons, time_zone, "
                        + "prohibit_overlap, enabled, spec_type)",
                "bad.hcl:4: job \"bad\" > periodic > cron: Invalid cron spec \"61 * * * *\": syntax error in minute "
                        + "field: '61' (out of range 0-59)",
                "bad.hcl:5: job \"bad\" > periodic > time_zone: Invalid time zone \"Mars/Olympus\" (an IANA zone such "
                        + "as \"America/New_York\" or \"UTC\")",
                "bad.hcl:12: job \"bad\" > group \"g\" > task \"t\" > dispatch_payload > file: \"../../../etc/passwd\" "
                        + "escapes the task's local/ directory (the payload is written inside it)");
    }

    @Test
    void nomadsJobLevelChecksKeepTheirWords() {
        List<String> all = problems("svc.hcl", """
                job "svc" {
                  periodic {
                    cron  = "@daily"
                    crons = ["@hourly"]
                  }
                  parameterized {
                    payload       = "sometimes"
                    meta_required = ["a", "b"]
                    meta_optional = ["b"]
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                      dispatch_payload {}
                    }
                  }
                }
                """);
        assertThat(all).containsExactly(
                "svc.hcl:4: job \"svc\" > periodic > crons: Only cron or crons may be used",
                "svc.hcl:7: job \"svc\" > parameterized > payload: Unknown payload requirement: \"sometimes\" "
                        + "(allowed: optional, required, forbidden)",
                "svc.hcl:9: job \"svc\" > parameterized > meta_optional: Required and optional meta keys should be "
                        + "disjoint. Following keys exist in both: [b]",
                "svc.hcl:14: job \"svc\" > group \"g\" > task \"t\" > dispatch_payload > file: is required: the file, "
                        + "inside the task's local/ directory, the dispatch payload is written to");
        assertThat(problems("empty.hcl", """
                job "e" {
                  type = "service"
                  periodic {}
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """)).containsExactly("empty.hcl:3: job \"e\" > periodic: Must specify a spec (cron = \"*/15 * * * *\")");
    }

    @Test
    void onlyBatchJobsMayBePeriodicOrParameterized() {
        assertThat(problems("s.hcl", """
                job "s" {
                  periodic {
                    cron = "@daily"
                  }
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """)).containsExactly(
                "s.hcl:2: job \"s\" > periodic: Periodic can only be used with \"batch\" or \"sysbatch\" scheduler");
    }

    @Test
    void aJobBothPeriodicAndParameterizedIsAParameterizedParentWhoseDispatchesArePeriodic() throws Exception {
        io.drover.core.spec.Job job = JobFileParser.parse("t.hcl", """
                job "t" {
                  type = "batch"
                  periodic {
                    cron = "@daily"
                  }
                  parameterized {}
                  group "g" {
                    task "t" {
                      driver = "mock"
                    }
                  }
                }
                """.getBytes(java.nio.charset.StandardCharsets.UTF_8));
        assertThat(job.launch().parent()).isTrue();
        assertThat(job.launch().periodicActive()).as("Nomad tracks no schedule of a parameterized job").isFalse();
        io.drover.core.spec.Job child = io.drover.core.spec.ChildJobs.dispatched(job, "t/dispatch-1-abcd0123",
                java.util.Map.of(), null);
        assertThat(child.launch().periodic()).as("the dispatch keeps the schedule").isNotNull();
        assertThat(child.launch().parent()).isTrue();
        assertThat(child.launch().periodicActive()).isTrue();
        io.drover.core.spec.Job grandchild = io.drover.core.spec.ChildJobs.periodic(child,
                java.time.Instant.ofEpochSecond(1_700_000_000));
        assertThat(grandchild.id()).isEqualTo("t/dispatch-1-abcd0123/periodic-1700000000");
        assertThat(grandchild.launch().parent()).as("it runs its allocations").isFalse();
        assertThat(grandchild.launch().dispatched()).isTrue();
        assertThat(grandchild.runtime().parentId()).isEqualTo("t/dispatch-1-abcd0123");
    }
}
