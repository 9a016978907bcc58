package io.drover.agent;

import static io.drover.agent.MockJobs.batch;
import static io.drover.agent.MockJobs.task;
import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.config.GcKillPolicy;
import io.drover.core.driver.DriverCatalog;
import io.drover.core.engine.Engine;
import io.drover.core.engine.EngineConfig;
import io.drover.core.engine.EngineRuntime;
import io.drover.core.spec.Job;
import io.drover.core.spec.JobLaunch;
import io.drover.core.spec.JobRuntime;
import io.drover.core.spec.JobType;
import io.drover.core.spec.Periodic;
import io.drover.core.store.JournalStore;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.concurrent.TimeUnit;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The registry's parent-job side ({@link RegistryParents}) as {@code ParentJobs} relies on it: which changes the
 * {@link JobRegistry.ParentListener} is told of, what a recorded parent is put back as, and a parent's children.
 * Uses no driver: a parent places nothing, and the one ordinary allocation here fails at once (no process).
 */
class JobRegistryParentsTest {
    @TempDir
    Path dataDir;

    private EngineRuntime runtime;
    private JournalStore store;
    private Engine engine;
    private JobRegistry registry;
    /** What the listener was told, in order: "id=version" for an entry, "id=purged" for none. */
    private final List<String> told = new ArrayList<>();

    @BeforeEach
    void start() throws Exception {
        runtime = EngineRuntime.real(2);
        store = JournalStore.open(dataDir.resolve("state"));
        engine = new Engine(new EngineConfig(dataDir, Duration.ofSeconds(30), GcKillPolicy.PRESERVE_STATES),
                DriverCatalog.EMPTY, runtime, store, () -> "a1");
        registry = new JobRegistry(engine);
        registry.parentListener((id, e) -> told.add(id + "=" + e.map(x -> x.stopped() ? "stopped" : "v" + x.version())
                .orElse("purged")));
    }

    @AfterEach
    void stop() throws Exception {
        engine.close();
        store.close();
        runtime.close();
    }

    @Test
    void theListenerHearsOfEveryChangeOfAParentAndOfNoOtherJob() {
        registry.register(batch("web", 0, task("web", "run_for", "1h")));
        registry.stop("web");
        registry.purge("web");
        assertThat(told).as("an ordinary job's changes").isEmpty();

        JobRegistry.Registration reg = registry.register(periodic("tick", "0 0 1 1 * 2099"));
        assertThat(reg.placed()).as("a parent places nothing").isEmpty();
        assertThat(reg.eval()).as("nor has an evaluation").isNull();
        registry.register(periodic("tick", "0 0 1 1 * 2099"));
        registry.register(periodic("tick", "0 0 2 1 * 2099"));
        registry.stop("tick");
        registry.purge("tick");
        assertThat(told).containsExactly("tick=v0", "tick=v1", "tick=stopped", "tick=stopped", "tick=purged");
    }

    @Test
    void aParentReRegisteredAsAnOrdinaryJobIsToldOnceSoItsTrackingEnds() {
        registry.register(periodic("tick", "0 0 1 1 * 2099"));
        registry.register(batch("tick", 0, task("web", "run_for", "1h")));
        registry.register(batch("tick", 0, task("web", "run_for", "2h")));
        assertThat(told).containsExactly("tick=v0", "tick=v1");
    }

    @Test
    void aRecordedParentComesBackWithTheAllocationsItsEarlierVersionsLeft() throws Exception {
        JobRegistry.Registration ordinary = registry.register(batch("tick", 1, task("web", "run_for", "1h")));
        engine.terminal("a1").get(20, TimeUnit.SECONDS);
        JobRegistry.Entry recorded = new JobRegistry.Entry(periodic("tick", "0 0 1 1 * 2099"), 1, 5L, 7L, List.of(),
                false, 3L, 7L);

        registry.restoreParent(recorded);

        JobRegistry.Entry back = registry.job("tick").orElseThrow();
        assertThat(back.job()).isEqualTo(recorded.job());
        assertThat(back.allocIds()).as("the allocations' ids, not the file's").isEqualTo(ordinary.entry().allocIds())
                .containsExactly("a1");
        assertThat(List.of((long) back.version(), back.submitTime(), back.modifyIndex(), back.createIndex(),
                back.jobModifyIndex())).as("the rest as recorded").containsExactly(1L, 5L, 7L, 3L, 7L);
        assertThat(registry.versions("tick")).first().isEqualTo(back);
        assertThat(told).as("a restore is no change to tell").isEmpty();

        JobRegistry.Entry alone = new JobRegistry.Entry(periodic("solo", "0 0 1 1 * 2099"), 0, 5L, 7L, List.of("x"),
                true, 7L, 7L);
        registry.restoreParent(alone);
        assertThat(registry.job("solo")).contains(alone);
    }

    @Test
    void childrenAreTheJobsWhoseParentIdIsTheParentSortedById() {
        registry.register(periodic("tick", "0 0 1 1 * 2099"));
        registry.register(child("tick/periodic-200", "tick"));
        registry.register(child("tick/periodic-100", "tick"));
        registry.register(child("tock/periodic-100", "tock"));
        registry.register(batch("tick-not-a-child", 0, task("web", "run_for", "1h")));

        assertThat(registry.children("tick")).extracting(e -> e.job().id())
                .containsExactly("tick/periodic-100", "tick/periodic-200");
        assertThat(registry.children("none")).isEmpty();
        assertThat(registry.children("tick")).allSatisfy(c -> assertThat(registry.job(c.job().id()))
                .isEqualTo(Optional.of(c)));
    }

    private static Job periodic(String id, String spec) {
        return new Job(id, id, JobType.BATCH, List.of("dc1"), List.of(), "t.hcl", null, List.of(),
                new JobLaunch(new Periodic(List.of(spec), "UTC", false, true), null, false));
    }

    private static Job child(String id, String parentId) {
        Job shape = batch(id, 0, task("web", "run_for", "1h"));
        return new Job(id, id, JobType.BATCH, shape.datacenters(), shape.groups(), "t.hcl",
                new JobRuntime("global", "default", Map.of(), parentId));
    }
}
