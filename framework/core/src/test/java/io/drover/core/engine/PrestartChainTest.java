package io.drover.core.engine;

import static org.assertj.core.api.Assertions.assertThat;

import io.drover.core.event.TaskEvents;
import io.drover.core.spec.Task;
import io.drover.core.time.ManualExecutor;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.concurrent.CompletableFuture;
import java.util.concurrent.CompletionStage;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;

class PrestartChainTest {
    private final ManualExecutor serial = new ManualExecutor();
    private final List<String> calls = new ArrayList<>();
    private final AtomicReference<Object> outcome = new AtomicReference<>();
    private final TaskPrep prep = new TaskPrep(task(), 1, true);

    private static Task task() {
        return TestJobs.batch(TestJobs.task("t")).groups().get(0).tasks().get(0);
    }

    private TaskHook sync(String name) {
        return new TaskHook() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CompletionStage<Void> prestart(TaskPrep p) {
                calls.add(name);
                p.env().put(name, "set");
                return DONE;
            }
        };
    }

    private TaskHook async(String name, CompletableFuture<Void> work) {
        return new TaskHook() {
            @Override
            public String name() {
                return name;
            }

            @Override
            public CompletionStage<Void> prestart(TaskPrep p) {
                calls.add(name);
                return work;
            }
        };
    }

    private PrestartChain chain(TaskHook... hooks) {
        return new PrestartChain(List.of(hooks), prep, serial, err -> outcome.set(err == null ? "ok" : err));
    }

    @Test
    void synchronousHooksRunInOrderInTheSameTurn() {
        chain(sync("a"), sync("b")).start();
        assertThat(calls).containsExactly("a", "b");
        assertThat(outcome.get()).isEqualTo("ok");
        assertThat(prep.env()).containsEntry("a", "set").containsEntry("b", "set");
        assertThat(serial.drain()).isZero();
    }

    @Test
    void aPendingHookHoldsTheChainUntilItCompletesThenHopsToTheSerialExecutor() {
        CompletableFuture<Void> work = new CompletableFuture<>();
        PrestartChain c = chain(sync("a"), async("slow", work), sync("b"));
        c.start();
        assertThat(calls).containsExactly("a", "slow");
        assertThat(c.waiting()).isTrue();
        work.complete(null);
        assertThat(calls).as("b runs on the serial executor, not the completing thread").containsExactly("a", "slow");
        serial.drain();
        assertThat(calls).containsExactly("a", "slow", "b");
        assertThat(outcome.get()).isEqualTo("ok");
        assertThat(c.waiting()).isFalse();
    }

    @Test
    void aFailureStopsTheChainAndIsReportedOnce() {
        HookFailure failure = new HookFailure("boom", t -> TaskEvents.setupFailure(t, "boom", false), true);
        CompletableFuture<Void> work = new CompletableFuture<>();
        chain(async("slow", work), sync("never")).start();
        work.completeExceptionally(failure);
        serial.drain();
        assertThat(calls).containsExactly("slow");
        assertThat(outcome.get()).isSameAs(failure);
    }

    @Test
    void aThrowingHookFailsTheChain() {
        TaskHook throwing = new TaskHook() {
            @Override
            public String name() {
                return "throws";
            }

            @Override
            public CompletionStage<Void> prestart(TaskPrep p) throws HookFailure {
                throw HookFailure.setup("no dir");
            }
        };
        chain(throwing, sync("never")).start();
        assertThat(outcome.get()).isInstanceOf(HookFailure.class);
        assertThat(calls).isEmpty();
    }

    @Test
    void cancelStopsThePendingWorkAndTheCallback() {
        CompletableFuture<Void> work = new CompletableFuture<>();
        PrestartChain c = chain(async("slow", work), sync("never"));
        c.start();
        c.cancel();
        assertThat(work).isCancelled();
        serial.drain();
        assertThat(outcome.get()).isNull();
        assertThat(calls).containsExactly("slow");
        c.cancel(); // idempotent
        assertThat(Map.copyOf(prep.env())).isEmpty();
    }
}
