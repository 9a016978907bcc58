package io.drover.agent;

import io.drover.core.spec.ChildJobs;
import io.drover.core.spec.Job;
import io.drover.core.spec.Parameterized;
import io.drover.core.spec.PayloadRule;
import io.drover.core.spec.SafeName;
import java.time.Instant;
import java.util.ArrayList;
import java.util.Base64;
import java.util.TreeSet;

/**
 * Nomad's dispatch of a parameterized job, decided (pure): the checks of Nomad's {@code Job.Dispatch} and
 * {@code validateDispatchRequest}, in their words, and the child job they give.
 */
final class Dispatches {
    /** Longest {@code IdPrefixTemplate} accepted (the child's id stays a readable name). */
    static final int MAX_PREFIX = 64;

    private Dispatches() {}

    /**
     * The child of {@code parent} for {@code request}, {@code <job>/dispatch-[<prefix>-]<unix seconds>-<random8>}.
     *
     * @throws DispatchRequest.DispatchException with Nomad's message when the job is not dispatchable or the request breaks its
     *     rules
     */
    static Job child(JobRegistry.Entry parent, DispatchRequest request, Instant now, String random8) throws DispatchRequest.DispatchException {
        Job job = parent.job();
        Parameterized rules = job.launch().parameterized();
        if (rules == null || job.launch().dispatched()) {
            throw new DispatchRequest.DispatchException(400, "Specified job \"" + job.id() + "\" is not a parameterized job");
        }
        if (parent.stopped()) {
            throw new DispatchRequest.DispatchException(400, "Specified job \"" + job.id() + "\" is stopped");
        }
        boolean hasPayload = request.payload().length != 0;
        if (rules.payload() == PayloadRule.REQUIRED && !hasPayload) {
            throw new DispatchRequest.DispatchException(400, "Payload is not provided but required by parameterized job");
        }
        if (rules.payload() == PayloadRule.FORBIDDEN && hasPayload) {
            throw new DispatchRequest.DispatchException(400, "Payload provided but forbidden by parameterized job");
        }
        if (request.payload().length > Parameterized.MAX_PAYLOAD) {
            throw new DispatchRequest.DispatchException(400, "Payload exceeds maximum size; " + request.payload().length + " > "
                    + Parameterized.MAX_PAYLOAD);
        }
        TreeSet<String> unpermitted = new TreeSet<>(request.meta().keySet());
        unpermitted.removeAll(rules.metaRequired());
        unpermitted.removeAll(rules.metaOptional());
        if (!unpermitted.isEmpty()) {
            throw new DispatchRequest.DispatchException(400, "Dispatch request included unpermitted metadata keys: " + go(unpermitted));
        }
        TreeSet<String> missing = new TreeSet<>(rules.metaRequired());
        missing.removeAll(request.meta().keySet());
        if (!missing.isEmpty()) {
            throw new DispatchRequest.DispatchException(400, "Dispatch did not provide required meta keys: " + go(missing));
        }
        String prefix = request.idPrefixTemplate();
        if (!prefix.isEmpty()) {
            java.util.Optional<String> bad = SafeName.problem(prefix);
            if (bad.isPresent() || prefix.length() > MAX_PREFIX || prefix.chars().anyMatch(Character::isWhitespace)) {
                throw new DispatchRequest.DispatchException(400, "IdPrefixTemplate \"" + SafeName.shown(prefix) + "\": "
                        + bad.orElse("must be at most " + MAX_PREFIX + " characters without spaces"));
            }
        }
        String id = job.id() + Parameterized.CHILD_SUFFIX + (prefix.isEmpty() ? "" : prefix + "-")
                + now.getEpochSecond() + "-" + random8;
        String payload = hasPayload ? Base64.getEncoder().encodeToString(request.payload()) : null;
        return ChildJobs.dispatched(job, id, request.meta(), payload);
    }

    /** A Go {@code %v} of a string slice: {@code [a b]}. */
    private static String go(TreeSet<String> keys) {
        return "[" + String.join(" ", new ArrayList<>(keys)) + "]";
    }

    /** Nomad's random part: the first 8 hex digits of a UUID. */
    static String random8() {
        return java.util.UUID.randomUUID().toString().substring(0, 8);
    }

}
