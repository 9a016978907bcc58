package io.drover.nomad.server;

import io.drover.nomad.proto.base.BasePluginGrpc;
import io.drover.nomad.proto.base.ConfigSchemaRequest;
import io.drover.nomad.proto.base.ConfigSchemaResponse;
import io.drover.nomad.proto.base.PluginInfoRequest;
import io.drover.nomad.proto.base.PluginInfoResponse;
import io.drover.nomad.proto.base.PluginType;
import io.drover.nomad.proto.base.SetConfigRequest;
import io.drover.nomad.proto.base.SetConfigResponse;
import io.drover.nomad.wire.ConfigProblems;
import io.drover.nomad.wire.NomadNames;
import io.grpc.Status;
import io.grpc.stub.StreamObserver;

/**
 * Nomad's {@code BasePlugin}: a driver plugin named {@code drover-<driver>} of plugin API 0.1.0, its plugin-block
 * schema, and SetConfig (which loads the driver, see {@link PluginHost#configure}). A bad block is
 * INVALID_ARGUMENT with one line naming every bad key; the plugin keeps running. Called on gRPC's executor.
 */
final class BasePluginService extends BasePluginGrpc.BasePluginImplBase {
    static final String API_VERSION = "0.1.0";

    private final PluginHost host;
    private final String version;

    BasePluginService(PluginHost host, String version) {
        this.host = host;
        this.version = version;
    }

    @Override
    public void pluginInfo(PluginInfoRequest request, StreamObserver<PluginInfoResponse> response) {
        response.onNext(PluginInfoResponse.newBuilder().setType(PluginType.DRIVER).addPluginApiVersions(API_VERSION)
                .setPluginVersion(version).setName(NomadNames.pluginName(host.driverName())).build());
        response.onCompleted();
    }

    @Override
    public void configSchema(ConfigSchemaRequest request, StreamObserver<ConfigSchemaResponse> response) {
        try {
            response.onNext(ConfigSchemaResponse.newBuilder().setSpec(host.schemas().plugin().toHclSpec()).build());
            response.onCompleted();
        } catch (ConfigProblems e) {
            response.onError(Status.FAILED_PRECONDITION.withDescription(e.getMessage()).asRuntimeException());
        }
    }

    @Override
    public void setConfig(SetConfigRequest request, StreamObserver<SetConfigResponse> response) {
        if (!request.getPluginApiVersion().isEmpty() && !API_VERSION.equals(request.getPluginApiVersion())) {
            response.onError(Status.INVALID_ARGUMENT.withDescription("plugin API version "
                    + request.getPluginApiVersion() + " is not supported; Drover serves " + API_VERSION)
                    .asRuntimeException());
            return;
        }
        try {
            host.configure(request.getMsgpackConfig().toByteArray());
        } catch (ConfigProblems e) {
            response.onError(Status.INVALID_ARGUMENT.withDescription(e.getMessage()).asRuntimeException());
            return;
        }
        response.onNext(SetConfigResponse.getDefaultInstance());
        response.onCompleted();
    }
}
