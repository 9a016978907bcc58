package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.spec.parse.JobFileParser;
import io.drover.core.state.AllocationState;
import io.drover.core.state.ClientStatus;
import io.drover.driver.api.ForwardingTaskDriver;
import io.drover.driver.api.TaskConfig;
import io.drover.driver.api.TaskHandle;
import io.drover.driver.api.schema.Attribute;
import io.drover.driver.api.schema.ConfigSchema;
import io.drover.driver.api.schema.SchemaKey;
import io.drover.plugins.mock.MockDriver;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.CompletionStage;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** A task's user reaches the config of a driver that has a user option; the config's own user wins. */
class TaskUserEngineTest {
    @TempDir
    Path dataDir;

    /** The mock driver, with a {@code user} option (as the java driver has); records the configs it starts. */
    static final class UserTakingDriver extends ForwardingTaskDriver {
        final List<Map<String, Object>> configs = new ArrayList<>();

        UserTakingDriver() {
            super(new MockDriver());
        }

        @Override
        public Optional<ConfigSchema> taskConfigSchema() {
            List<SchemaKey> keys = new ArrayList<>(super.taskConfigSchema().orElseThrow().keys());
            keys.add(Attribute.string("user"));
            return Optional.of(new ConfigSchema(keys));
        }

        @Override
        public List<io.drover.driver.api.ConfigProblem> validateConfig(Map<String, Object> config) {
            Map<String, Object> rest = new java.util.LinkedHashMap<>(config);
            rest.remove("user");
            return super.validateConfig(rest);
        }

        @Override
        public CompletionStage<TaskHandle> start(TaskConfig config) {
            configs.add(config.config());
            Map<String, Object> rest = new java.util.LinkedHashMap<>(config.config());
            rest.remove("user");
            return super.start(new TaskConfig(config.taskId(), config.allocId(), config.jobId(), config.groupName(),
                    config.taskName(), rest, config.env(), config.taskDir(), config.allocDir(), config.stdoutPath(),
                    config.stderrPath(), config.logMaxFiles(), config.logMaxFileSize()));
        }
    }

    @Test
    void theTasksUserIsInTheDriversConfigUnlessTheConfigNamesOne() throws Exception {
        UserTakingDriver driver = new UserTakingDriver();
        AllocationState a = new VirtualEngine(dataDir, driver).run(JobFileParser.parse("u.hcl", """
                job "u" {
                  type = "batch"
                  group "g" {
                    task "a" {
                      driver = "mock"
                      user   = "nobody"
                      config { run_for = "1s" }
                    }
                    task "b" {
                      driver = "mock"
                      user   = "nobody"
                      config {
                        run_for = "1s"
                        user    = "daemon"
                      }
                    }
                    task "c" {
                      driver = "mock"
                      config { run_for = "1s" }
                    }
                  }
                }
                """.getBytes(StandardCharsets.UTF_8)));
        assertThat(a.clientStatus()).as(a.toString()).isEqualTo(ClientStatus.COMPLETE);
        assertThat(driver.configs).extracting(c -> c.get("user")).containsExactlyInAnyOrder("nobody", "daemon", null);
    }
}
