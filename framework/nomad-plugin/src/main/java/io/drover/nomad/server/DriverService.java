package io.drover.nomad.server;

import com.google.protobuf.ByteString;
import io.drover.driver.api.DriverException;
import io.drover.driver.api.DriverHealth;
import io.drover.driver.api.ExitResult;
import io.drover.driver.api.TaskDriver;
import io.drover.driver.api.TaskNotFoundException;
import io.drover.nomad.proto.driver.CapabilitiesRequest;
import io.drover.nomad.proto.driver.CapabilitiesResponse;
import io.drover.nomad.proto.driver.DestroyTaskRequest;
import io.drover.nomad.proto.driver.DestroyTaskResponse;
import io.drover.nomad.proto.driver.DriverCapabilities;
import io.drover.nomad.proto.driver.DriverGrpc;
import io.drover.nomad.proto.driver.DriverTaskEvent;
import io.drover.nomad.proto.driver.FingerprintRequest;
import io.drover.nomad.proto.driver.FingerprintResponse;
import io.drover.nomad.proto.driver.InitRequest;
import io.drover.nomad.proto.driver.InitResponse;
import io.drover.nomad.proto.driver.InspectTaskRequest;
import io.drover.nomad.proto.driver.InspectTaskResponse;
import io.drover.nomad.proto.driver.RecoverTaskRequest;
import io.drover.nomad.proto.driver.RecoverTaskResponse;
import io.drover.nomad.proto.driver.ShutdownRequest;
import io.drover.nomad.proto.driver.ShutdownResponse;
import io.drover.nomad.proto.driver.SignalTaskRequest;
import io.drover.nomad.proto.driver.SignalTaskResponse;
import io.drover.nomad.proto.driver.StartTaskRequest;
import io.drover.nomad.proto.driver.StartTaskResponse;
import io.drover.nomad.proto.driver.StopTaskRequest;
import io.drover.nomad.proto.driver.StopTaskResponse;
import io.drover.nomad.proto.driver.TaskConfigSchemaRequest;
import io.drover.nomad.proto.driver.TaskConfigSchemaResponse;
import io.drover.nomad.proto.driver.TaskEventsRequest;
import io.drover.nomad.proto.driver.TaskHandle;
import io.drover.nomad.proto.driver.TaskState;
import io.drover.nomad.proto.driver.TaskStatsRequest;
import io.drover.nomad.proto.driver.TaskStatsResponse;
import io.drover.nomad.proto.driver.TaskStatus;
import io.drover.nomad.proto.driver.WaitTaskRequest;
import io.drover.nomad.proto.driver.WaitTaskResponse;
import io.drover.nomad.proto.structs.Attribute;
import io.drover.nomad.task.NomadTasks;
import io.drover.nomad.wire.NomadNames;
import io.grpc.Status;
import io.grpc.StatusRuntimeException;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Duration;
import java.time.Instant;
import java.util.concurrent.CompletionException;

/**
 * Nomad's {@code Driver} service over {@link NomadTasks}. Unary calls that wait (StartTask, WaitTask, StopTask)
 * answer from the stage's completion: no gRPC thread waits for a task. Streams: Fingerprint (now, then every
 * {@value #FINGERPRINT_SECONDS} s, on the timer), TaskEvents ({@link io.drover.nomad.task.TaskEventHub}),
 * TaskStats ({@link StatsStreams}). Exec and networks are UNIMPLEMENTED (the capabilities say no exec, no
 * network isolation). Before SetConfig, task calls answer FAILED_PRECONDITION.
 */
final class DriverService extends DriverGrpc.DriverImplBase {
    static final long FINGERPRINT_SECONDS = 30;

    private final PluginHost host;
    private final StatsStreams stats;
    private final String version;

    DriverService(PluginHost host, StatsStreams stats, String version) {
        this.host = host;
        this.stats = stats;
        this.version = version;
    }

    @Override
    public void init(InitRequest request, StreamObserver<InitResponse> response) {
        reply(response, InitResponse.getDefaultInstance());
    }

    @Override
    public void taskConfigSchema(TaskConfigSchemaRequest request, StreamObserver<TaskConfigSchemaResponse> response) {
        try {
            reply(response, TaskConfigSchemaResponse.newBuilder().setSpec(host.schemas().task().toHclSpec()).build());
        } catch (io.drover.nomad.wire.ConfigProblems e) {
            response.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
        }
    }

    @Override
    public void capabilities(CapabilitiesRequest request, StreamObserver<CapabilitiesResponse> response) {
        boolean signals = host.driver().map(d -> d.capabilities().sendSignals()).orElse(true);
        DriverCapabilities.FSIsolation fs = "exec".equals(host.driverName())
                ? DriverCapabilities.FSIsolation.CHROOT : DriverCapabilities.FSIsolation.NONE;
        reply(response, CapabilitiesResponse.newBuilder().setCapabilities(DriverCapabilities.newBuilder()
                .setSendSignals(signals).setExec(false).setFsIsolation(fs)
                .setMountConfigs(DriverCapabilities.MountConfigs.NO_MOUNTS)).build());
    }

    @Override
    public void fingerprint(FingerprintRequest request, StreamObserver<FingerprintResponse> response) {
        ServerCallStreamObserver<FingerprintResponse> stream = (ServerCallStreamObserver<FingerprintResponse>) response;
        Runnable[] tick = new Runnable[1];
        tick[0] = () -> {
            if (stream.isCancelled()) {
                return;
            }
            synchronized (stream) {
                stream.onNext(fingerprint());
            }
            host.timers().schedule(Duration.ofSeconds(FINGERPRINT_SECONDS), tick[0]);
        };
        tick[0].run();
    }

    private FingerprintResponse fingerprint() {
        String name = NomadNames.pluginName(host.driverName());
        FingerprintResponse.Builder b = FingerprintResponse.newBuilder()
                .putAttributes("driver." + name + ".version", Attribute.newBuilder().setStringVal(version).build());
        TaskDriver driver = host.driver().orElse(null);
        if (driver == null) {
            return b.setHealth(FingerprintResponse.HealthState.UNDETECTED)
                    .setHealthDescription("waiting for the plugin config (SetConfig)").build();
        }
        DriverHealth health;
        try {
            health = driver.health();
        } catch (RuntimeException e) {
            health = DriverHealth.unhealthy("health check failed: " + e);
        }
        FingerprintResponse.HealthState state = switch (health.state()) {
            case HEALTHY -> FingerprintResponse.HealthState.HEALTHY;
            case UNHEALTHY -> FingerprintResponse.HealthState.UNHEALTHY;
            case UNDETECTED -> FingerprintResponse.HealthState.UNDETECTED;
        };
        return b.setHealth(state).setHealthDescription(health.description()).build();
    }

    @Override
    public void startTask(StartTaskRequest request, StreamObserver<StartTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        tasks.start(request.getTask()).whenComplete((started, error) -> {
            if (error == null) {
                reply(response, StartTaskResponse.newBuilder().setResult(StartTaskResponse.Result.SUCCESS)
                        .setHandle(TaskHandle.newBuilder().setVersion(1).setConfig(request.getTask())
                                .setState(TaskState.RUNNING).setDriverState(ByteString.copyFrom(started.driverState())))
                        .build());
                return;
            }
            Throwable cause = error instanceof CompletionException && error.getCause() != null ? error.getCause() : error;
            boolean retry = cause instanceof NomadTasks.StartRefused r && r.retry;
            reply(response, StartTaskResponse.newBuilder()
                    .setResult(retry ? StartTaskResponse.Result.RETRY : StartTaskResponse.Result.FATAL)
                    .setDriverErrorMsg(String.valueOf(cause.getMessage())).build());
        });
    }

    @Override
    public void recoverTask(RecoverTaskRequest request, StreamObserver<RecoverTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        try {
            tasks.recover(request.getTaskId(), request.getHandle());
        } catch (TaskNotFoundException e) {
            response.onError(Status.NOT_FOUND.withDescription("task " + request.getTaskId()
                    + " is gone and its end is not known").asRuntimeException());
            return;
        } catch (DriverException e) {
            response.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        reply(response, RecoverTaskResponse.getDefaultInstance());
    }

    @Override
    public void waitTask(WaitTaskRequest request, StreamObserver<WaitTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        try {
            tasks.await(request.getTaskId()).whenComplete((o, e) -> reply(response, e != null
                    ? WaitTaskResponse.newBuilder().setErr(String.valueOf(e)).build()
                    : WaitTaskResponse.newBuilder().setResult(exit(o.exit())).setErr(o.err()).build()));
        } catch (TaskNotFoundException e) {
            notFound(response, request.getTaskId());
        }
    }

    @Override
    public void stopTask(StopTaskRequest request, StreamObserver<StopTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        Duration timeout = Duration.ofSeconds(request.getTimeout().getSeconds(), request.getTimeout().getNanos());
        try {
            tasks.stop(request.getTaskId(), timeout, request.getSignal())
                    .whenComplete((v, e) -> reply(response, StopTaskResponse.getDefaultInstance()));
        } catch (TaskNotFoundException e) {
            notFound(response, request.getTaskId());
        }
    }

    @Override
    public void destroyTask(DestroyTaskRequest request, StreamObserver<DestroyTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        try {
            tasks.destroy(request.getTaskId(), request.getForce());
        } catch (TaskNotFoundException e) {
            // gone already: destroyed
        } catch (IllegalStateException e) {
            response.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        reply(response, DestroyTaskResponse.getDefaultInstance());
    }

    @Override
    public void inspectTask(InspectTaskRequest request, StreamObserver<InspectTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        try {
            NomadTasks.Inspection i = tasks.inspect(request.getTaskId());
            TaskStatus.Builder s = TaskStatus.newBuilder().setId(i.id()).setName(i.name())
                    .setState(i.exit() == null ? TaskState.RUNNING : TaskState.EXITED)
                    .setStartedAt(timestamp(i.startedAt()));
            if (i.exit() != null) {
                s.setCompletedAt(timestamp(i.completedAt())).setResult(exit(i.exit()));
            }
            reply(response, InspectTaskResponse.newBuilder().setTask(s).build());
        } catch (TaskNotFoundException e) {
            notFound(response, request.getTaskId());
        }
    }

    @Override
    public void signalTask(SignalTaskRequest request, StreamObserver<SignalTaskResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        try {
            tasks.signal(request.getTaskId(), request.getSignal());
        } catch (TaskNotFoundException e) {
            notFound(response, request.getTaskId());
            return;
        } catch (DriverException e) {
            response.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        reply(response, SignalTaskResponse.getDefaultInstance());
    }

    @Override
    public void taskEvents(TaskEventsRequest request, StreamObserver<DriverTaskEvent> response) {
        host.events().subscribe(response);
    }

    @Override
    public void taskStats(TaskStatsRequest request, StreamObserver<TaskStatsResponse> response) {
        NomadTasks tasks = tasks(response);
        if (tasks == null) {
            return;
        }
        Duration every = Duration.ofSeconds(request.getCollectionInterval().getSeconds(),
                request.getCollectionInterval().getNanos());
        try {
            stats.open(tasks, request.getTaskId(), every, (ServerCallStreamObserver<TaskStatsResponse>) response);
        } catch (TaskNotFoundException e) {
            notFound(response, request.getTaskId());
        }
    }

    @Override
    public void shutdown(ShutdownRequest request, StreamObserver<ShutdownResponse> response) {
        reply(response, ShutdownResponse.getDefaultInstance());
    }

    private NomadTasks tasks(StreamObserver<?> response) {
        NomadTasks tasks = host.tasks().orElse(null);
        if (tasks == null) {
            response.onError(Status.FAILED_PRECONDITION.withDescription("the plugin is not configured yet (SetConfig)")
                    .asRuntimeException());
        }
        return tasks;
    }

    private static void notFound(StreamObserver<?> response, String taskId) {
        response.onError(Status.NOT_FOUND.withDescription("task " + taskId + " not found").asRuntimeException());
    }

    static io.drover.nomad.proto.driver.ExitResult exit(ExitResult r) {
        return io.drover.nomad.proto.driver.ExitResult.newBuilder().setExitCode(r.exitCode()).setSignal(r.signal())
                .setOomKilled(r.oomKilled()).build();
    }

    static com.google.protobuf.Timestamp timestamp(Instant at) {
        return com.google.protobuf.Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano())
                .build();
    }

    private static <T> void reply(StreamObserver<T> response, T value) {
        try {
            response.onNext(value);
            response.onCompleted();
        } catch (StatusRuntimeException | IllegalStateException e) {
            // the client went away (cancelled call)
        }
    }
}
