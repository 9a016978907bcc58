package io.drover.nomad.server;

import io.drover.nomad.proto.goplugin.ConnInfo;
import io.drover.nomad.proto.goplugin.Empty;
import io.drover.nomad.proto.goplugin.GRPCBrokerGrpc;
import io.drover.nomad.proto.goplugin.GRPCControllerGrpc;
import io.drover.nomad.proto.goplugin.GRPCStdioGrpc;
import io.drover.nomad.proto.goplugin.StdioData;
import io.drover.nomad.proto.health.HealthCheckRequest;
import io.drover.nomad.proto.health.HealthCheckResponse;
import io.drover.nomad.proto.health.HealthGrpc;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;

/**
 * The services go-plugin's client expects of every gRPC plugin besides its own:
 * <ul>
 *   <li>{@code grpc.health.v1.Health}: {@code Check("plugin")} is SERVING while the plugin runs (the client's
 *       {@code Ping});
 *   <li>{@code plugin.GRPCController.Shutdown}: the client's {@code Kill()}; answers, then shuts the plugin down;
 *   <li>{@code plugin.GRPCBroker.StartStream}: the client opens it at connect; Drover's driver needs no extra
 *       connections, so the stream is held open, every knock answered as refused, until the client closes it;
 *   <li>{@code plugin.GRPCStdio.StreamStdio}: held open and silent: the plugin writes nothing to stdout after the
 *       handshake, and its stderr (logging) reaches the client directly.
 * </ul>
 * Thread-safe; no method blocks.
 */
final class GoPluginServices {
    static final String HEALTH_SERVICE = "plugin";

    private final Runnable shutdown;
    private final Set<StreamObserver<?>> held = ConcurrentHashMap.newKeySet();

    GoPluginServices(Runnable shutdown) {
        this.shutdown = shutdown;
    }

    HealthGrpc.HealthImplBase health() {
        return new HealthGrpc.HealthImplBase() {
            @Override
            public void check(HealthCheckRequest request, StreamObserver<HealthCheckResponse> response) {
                if (!request.getService().isEmpty() && !HEALTH_SERVICE.equals(request.getService())) {
                    response.onError(Status.NOT_FOUND.withDescription("unknown service " + request.getService())
                            .asRuntimeException());
                    return;
                }
                response.onNext(HealthCheckResponse.newBuilder()
                        .setStatus(HealthCheckResponse.ServingStatus.SERVING).build());
                response.onCompleted();
            }
        };
    }

    GRPCControllerGrpc.GRPCControllerImplBase controller() {
        return new GRPCControllerGrpc.GRPCControllerImplBase() {
            @Override
            public void shutdown(Empty request, StreamObserver<Empty> response) {
                response.onNext(Empty.getDefaultInstance());
                response.onCompleted();
                shutdown.run();
            }
        };
    }

    GRPCBrokerGrpc.GRPCBrokerImplBase broker() {
        return new GRPCBrokerGrpc.GRPCBrokerImplBase() {
            @Override
            public StreamObserver<ConnInfo> startStream(StreamObserver<ConnInfo> response) {
                held.add(response);
                return new StreamObserver<>() {
                    @Override
                    public void onNext(ConnInfo info) {
                        if (info.hasKnock() && info.getKnock().getKnock()) {
                            synchronized (response) {
                                response.onNext(ConnInfo.newBuilder().setServiceId(info.getServiceId())
                                        .setKnock(ConnInfo.Knock.newBuilder().setAck(false)
                                                .setError("Drover's plugin serves no brokered connections"))
                                        .build());
                            }
                        }
                    }

                    @Override
                    public void onError(Throwable t) {
                        held.remove(response);
                    }

                    @Override
                    public void onCompleted() {
                        held.remove(response);
                        synchronized (response) {
                            response.onCompleted();
                        }
                    }
                };
            }
        };
    }

    GRPCStdioGrpc.GRPCStdioImplBase stdio() {
        return new GRPCStdioGrpc.GRPCStdioImplBase() {
            @Override
            public void streamStdio(com.google.protobuf.Empty request, StreamObserver<StdioData> response) {
                held.add(response); // ends when the client goes or the server shuts down
            }
        };
    }

    /** Ends the held streams (plugin shutdown). */
    void close() {
        for (StreamObserver<?> s : held) {
            try {
                synchronized (s) {
                    s.onCompleted();
                }
            } catch (RuntimeException e) {
                // cancelled already
            }
        }
        held.clear();
    }
}
