package io.drover.agent.http;

import java.util.LinkedHashSet;
import java.util.List;
import java.util.Set;
import org.eclipse.jetty.http.HttpHeader;
import org.eclipse.jetty.server.Response;

/**
 * {@code GET /v1/event/stream[?topic=Allocation&topic=Job:<id>]}: Nomad's event stream (docs/ui.md), newline
 * delimited JSON frames that stay open. {@code topic} may be repeated; each is {@code Topic}, {@code Topic:*} or
 * {@code Topic:<key>} with Topic one of {@code Allocation}, {@code Job} or {@code *}; none means every topic. The
 * stream starts with a {@code {}} heartbeat, so a client knows it is connected. Runs on a server thread, which
 * only checks the query and hands the exchange to the {@link EventBroker}; no thread is kept per stream.
 */
final class EventStreamHandler {
    static final List<String> TOPICS = List.of("Allocation", "Job", "*");

    private final EventBroker broker;

    EventStreamHandler(EventBroker broker) {
        this.broker = broker;
    }

    void addRoutes(Router router) {
        router.add("GET", "/v1/event/stream", this::stream);
    }

    /** The topic filter of {@code topic} parameters; every problem named in one 400. */
    static Set<String> topics(List<String> params) throws ApiException {
        Set<String> out = new LinkedHashSet<>();
        List<String> bad = new java.util.ArrayList<>();
        for (String p : params) {
            int colon = p.indexOf(':');
            String topic = colon < 0 ? p : p.substring(0, colon);
            String key = colon < 0 ? "*" : p.substring(colon + 1);
            if (!TOPICS.contains(topic) || key.isEmpty()) {
                bad.add("\"" + p + "\"");
            } else if (topic.equals("*")) {
                out.add("*");
            } else {
                out.add(key.equals("*") ? topic : topic + ":" + key);
            }
        }
        if (!bad.isEmpty()) {
            throw ApiException.badRequest("topic " + String.join(", ", bad) + ": must be Topic, Topic:* or "
                    + "Topic:<key>, with Topic one of " + String.join(", ", TOPICS));
        }
        return out.isEmpty() ? Set.of("*") : Set.copyOf(out);
    }

    private void stream(ApiRequest req) throws Exception {
        Set<String> topics = topics(req.queryAll("topic"));
        Response response = req.jettyResponse();
        ApiRequest.Exchange exchange = (ApiRequest.Exchange) req.exchange();
        EventSubscriber s = new EventSubscriber(response, exchange, topics, broker::remove);
        if (!broker.add(s)) {
            throw new ApiException(429, "too many event streams (" + EventBroker.MAX_SUBSCRIBERS + "); try later");
        }
        response.setStatus(200);
        response.getHeaders().put(HttpHeader.CONTENT_TYPE, "application/json");
        response.getHeaders().put(HttpHeader.CACHE_CONTROL, "no-store");
        response.getHeaders().put("X-Nomad-Index", String.valueOf(broker.index()));
        req.detach();
        s.offer("{}\n".getBytes(java.nio.charset.StandardCharsets.US_ASCII));
    }
}
