package io.drover.core.service;

import com.fasterxml.jackson.annotation.JsonProperty;
import com.fasterxml.jackson.annotation.JsonPropertyOrder;
import java.util.List;

/**
 * One registered instance of a {@code provider = "nomad"} service, in the shape of Nomad's
 * {@code structs.ServiceRegistration} (what {@code GET /v1/service/:name} returns). Immutable.
 *
 * @param id Nomad's form: {@code _nomad-task-<alloc id>-<task name>-<service name>-<port label>}, the task name
 *     being {@code group-<group>} for a group service
 * @param createIndex the registry's index when it was first registered
 * @param modifyIndex the registry's index when it last changed
 */
@JsonPropertyOrder({"ID", "ServiceName", "Namespace", "NodeID", "Datacenter", "JobID", "AllocID", "Tags", "Address",
        "Port", "CreateIndex", "ModifyIndex"})
public record ServiceRegistration(
        @JsonProperty("ID") String id,
        @JsonProperty("ServiceName") String serviceName,
        @JsonProperty("Namespace") String namespace,
        @JsonProperty("NodeID") String nodeId,
        @JsonProperty("Datacenter") String datacenter,
        @JsonProperty("JobID") String jobId,
        @JsonProperty("AllocID") String allocId,
        @JsonProperty("Tags") List<String> tags,
        @JsonProperty("Address") String address,
        @JsonProperty("Port") int port,
        @JsonProperty("CreateIndex") long createIndex,
        @JsonProperty("ModifyIndex") long modifyIndex) {

    public ServiceRegistration {
        tags = tags == null ? List.of() : List.copyOf(tags);
    }

    /** The same registration with other indexes. */
    public ServiceRegistration withIndexes(long create, long modify) {
        return new ServiceRegistration(id, serviceName, namespace, nodeId, datacenter, jobId, allocId, tags, address,
                port, create, modify);
    }

    /** Whether {@code o} registers the same thing (every field but the indexes). */
    public boolean sameAs(ServiceRegistration o) {
        return withIndexes(0, 0).equals(o.withIndexes(0, 0));
    }
}
