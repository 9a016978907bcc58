package io.drover.nomad.task;

import com.google.protobuf.Timestamp;
import io.drover.nomad.proto.driver.DriverTaskEvent;
import io.grpc.stub.ServerCallStreamObserver;
import io.grpc.stub.StreamObserver;
import java.time.Instant;
import java.util.Map;
import java.util.concurrent.CopyOnWriteArrayList;

/**
 * The open {@code TaskEvents} streams (Nomad's client opens one per plugin) and the events sent to them. Thread-safe:
 * {@link #publish} is called from the timer thread (max_runtime) and gRPC threads; a stream's {@code onNext} is
 * serialised by this hub's monitor, as gRPC requires. Never blocks on a slow client (gRPC buffers).
 */
public final class TaskEventHub {
    private final CopyOnWriteArrayList<StreamObserver<DriverTaskEvent>> streams = new CopyOnWriteArrayList<>();

    public void subscribe(StreamObserver<DriverTaskEvent> stream) {
        streams.add(stream);
        if (stream instanceof ServerCallStreamObserver<DriverTaskEvent> server) {
            server.setOnCancelHandler(() -> streams.remove(stream));
        }
    }

    /** Sends one event to every open stream. */
    public synchronized void publish(String taskId, String allocId, String taskName, Instant at, String message,
            Map<String, String> annotations) {
        DriverTaskEvent event = DriverTaskEvent.newBuilder().setTaskId(taskId).setAllocId(allocId)
                .setTaskName(taskName).setTimestamp(timestamp(at)).setMessage(message)
                .putAllAnnotations(annotations).build();
        for (StreamObserver<DriverTaskEvent> s : streams) {
            try {
                s.onNext(event);
            } catch (RuntimeException e) {
                streams.remove(s); // a cancelled stream
            }
        }
    }

    /** Ends every stream (plugin shutdown). */
    public synchronized void close() {
        for (StreamObserver<DriverTaskEvent> s : streams) {
            try {
                s.onCompleted();
            } catch (RuntimeException e) {
                // already cancelled
            }
        }
        streams.clear();
    }

    static Timestamp timestamp(Instant at) {
        return Timestamp.newBuilder().setSeconds(at.getEpochSecond()).setNanos(at.getNano()).build();
    }
}
