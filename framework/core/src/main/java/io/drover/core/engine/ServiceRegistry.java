package io.drover.core.engine;

import io.drover.core.service.ServiceCatalog;
import io.drover.core.service.ServiceRegistration;
import io.drover.core.state.AllocationState;
import java.util.ArrayList;
import java.util.Comparator;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.atomic.AtomicLong;
import java.util.function.LongSupplier;

/**
 * Nomad's native service discovery on one node: the {@code provider = "nomad"} services of the running tasks and
 * allocations ({@link ServiceRegistrations}), kept in memory. It is an {@link AllocationListener} (the engine adds
 * it before any other), so every durable snapshot of an allocation brings its registrations up to date: registered
 * when a task runs, removed when it stops, is killed, fails, or its allocation ends or is collected. Nothing is
 * persisted: after an agent restart the re-attached tasks' snapshots register them again, and a task that did not
 * survive registers nothing. A change takes one new index ({@code nextIndex}: the agent's Raft-like index, which
 * also wakes blocking queries): {@code CreateIndex} when first registered, {@code ModifyIndex} when it last changed.
 *
 * <p>Threads: written by the engine threads that publish snapshots (any allocation's, in parallel) and by the API
 * thread of a {@code DELETE}; read by template renders (hook pool) and API threads. One lock guards the per-allocation
 * table and is held for an in-memory diff only; a change drops the immutable view (volatile), the first read after
 * it rebuilds it under the lock (a sort, in memory), and every other read takes it without locking or blocking.
 */
public final class ServiceRegistry implements AllocationListener, ServiceCatalog {
    private static final Comparator<ServiceRegistration> ORDER = Comparator.comparing(ServiceRegistration::namespace)
            .thenComparing(ServiceRegistration::serviceName).thenComparing(ServiceRegistration::id);

    private final String nodeId;
    private final LongSupplier nextIndex;
    private final Object lock = new Object();
    /** Allocation id to its registrations by ID (guarded by {@link #lock}). */
    private final Map<String, Map<String, ServiceRegistration>> byAlloc = new HashMap<>();
    /** What readers see; null after a change until the next read builds it (once per change, under the lock). */
    private volatile View view = View.EMPTY;

    /** An immutable view: every registration sorted, and each name's (any namespace) sorted by ID. */
    private record View(List<ServiceRegistration> all, Map<String, List<ServiceRegistration>> byName) {
        static final View EMPTY = new View(List.of(), Map.of());
    }

    /**
     * @param nodeId this node's ID, each registration's {@code NodeID}
     * @param nextIndex a new index per change (thread-safe, non-blocking)
     */
    public ServiceRegistry(String nodeId, LongSupplier nextIndex) {
        this.nodeId = nodeId;
        this.nextIndex = nextIndex;
    }

    /** A registry of its own counter, for an engine without an agent ({@code drover run}). */
    public static ServiceRegistry local() {
        AtomicLong counter = new AtomicLong();
        return new ServiceRegistry("local", counter::incrementAndGet);
    }

    /** Engine thread, after the snapshot is durable: brings the allocation's registrations up to date. */
    @Override
    public void onUpdate(AllocationState state) {
        boolean declares = ServiceRegistrations.declares(state);
        synchronized (lock) {
            if (!declares && !byAlloc.containsKey(state.id())) {
                return;
            }
        }
        List<ServiceRegistration> wanted = ServiceRegistrations.of(state, nodeId);
        synchronized (lock) {
            Map<String, ServiceRegistration> had = byAlloc.getOrDefault(state.id(), Map.of());
            Map<String, ServiceRegistration> now = new LinkedHashMap<>();
            List<ServiceRegistration> fresh = new ArrayList<>();
            for (ServiceRegistration w : wanted) {
                ServiceRegistration old = had.get(w.id());
                if (old != null && old.sameAs(w)) {
                    now.put(w.id(), old);
                } else {
                    fresh.add(old == null ? w : w.withIndexes(old.createIndex(), 0));
                }
            }
            if (fresh.isEmpty() && now.size() == had.size()) {
                return; // nothing changed
            }
            publish(); // first: a reader woken by the new index finds no view and waits for this change
            long index = nextIndex.getAsLong();
            for (ServiceRegistration f : fresh) {
                now.put(f.id(), f.withIndexes(f.createIndex() == 0 ? index : f.createIndex(), index));
            }
            if (now.isEmpty()) {
                byAlloc.remove(state.id());
            } else {
                byAlloc.put(state.id(), now);
            }
        }
    }

    /**
     * {@code DELETE /v1/service/:name/:id}: removes one registration (API thread). As with Nomad's client, the
     * allocation's next change registers a service of a running task again.
     *
     * @return whether it was registered
     */
    public boolean delete(String namespace, String name, String id) {
        synchronized (lock) {
            for (Map.Entry<String, Map<String, ServiceRegistration>> e : byAlloc.entrySet()) {
                ServiceRegistration r = e.getValue().get(id);
                if (r != null && r.serviceName().equals(name) && (namespace.equals("*")
                        || r.namespace().equals(namespace))) {
                    Map<String, ServiceRegistration> rest = new LinkedHashMap<>(e.getValue());
                    rest.remove(id);
                    if (rest.isEmpty()) {
                        byAlloc.remove(e.getKey());
                    } else {
                        e.setValue(rest);
                    }
                    publish();
                    nextIndex.getAsLong(); // after the change: a query it wakes reads it
                    return true;
                }
            }
            return false;
        }
    }

    /**
     * Under the lock: drops the view, so that a burst of changes (10,000 allocations starting) costs one sort at
     * the next read, not one per change.
     */
    private void publish() {
        view = null;
    }

    /** The current view, built by the first read after a change. */
    private View view() {
        View v = view;
        if (v != null) {
            return v;
        }
        synchronized (lock) {
            if (view == null) {
                List<ServiceRegistration> all = new ArrayList<>();
                byAlloc.values().forEach(m -> all.addAll(m.values()));
                all.sort(ORDER);
                Map<String, List<ServiceRegistration>> byName = new HashMap<>();
                for (ServiceRegistration r : all) {
                    byName.computeIfAbsent(r.serviceName(), k -> new ArrayList<>()).add(r);
                }
                byName.replaceAll((k, l) -> {
                    l.sort(Comparator.comparing(ServiceRegistration::id));
                    return List.copyOf(l);
                });
                view = new View(List.copyOf(all), Map.copyOf(byName));
            }
            return view;
        }
    }

    @Override
    public List<ServiceRegistration> all() {
        return view().all();
    }

    @Override
    public List<ServiceRegistration> named(String namespace, String name) {
        List<ServiceRegistration> same = view().byName().getOrDefault(name, List.of());
        if (namespace.equals("*")) {
            return same;
        }
        return same.stream().filter(r -> r.namespace().equals(namespace)).toList();
    }
}
