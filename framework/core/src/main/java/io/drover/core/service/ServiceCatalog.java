package io.drover.core.service;

import java.util.List;

/**
 * What reads Nomad's native service registry ({@code provider = "nomad"} services of running tasks): templates
 * ({@code nomadService}, {@code nomadServices}) and the HTTP API ({@code /v1/services}, {@code /v1/service/:name}).
 * Implementations are thread-safe, never block (an in-memory read) and return immutable lists.
 */
public interface ServiceCatalog {
    /** A catalog with nothing registered, ever. */
    ServiceCatalog NONE = new ServiceCatalog() {
        @Override
        public List<ServiceRegistration> all() {
            return List.of();
        }

        @Override
        public List<ServiceRegistration> named(String namespace, String name) {
            return List.of();
        }
    };

    /** Every registration, ordered by namespace, service name, then ID. */
    List<ServiceRegistration> all();

    /**
     * The registrations of service {@code name} in {@code namespace} ({@code "*"}: every namespace), ordered by
     * ID.
     */
    List<ServiceRegistration> named(String namespace, String name);
}
