package io.drover.core.store;

import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import io.drover.core.event.TaskEvent;
import io.drover.core.spec.Job;
import io.drover.core.state.ClientStatus;
import io.drover.core.state.DesiredStatus;
import io.drover.core.state.TaskLifeState;
import java.io.IOException;
import java.util.ArrayList;
import java.util.HashMap;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;

/**
 * Reads a {@link Records.Rec} with hand-written streaming code instead of Jackson's reflective record binding:
 * replaying a journal is mostly parsing, and databind's generic path for the allocation records (header, task
 * deltas, task fields) was ~5× slower in a fresh JVM (agent start with 10,000 allocations, docs/performance.md).
 * Reads exactly what {@link RecordCodec} writes; jobs (one record per distinct job) still go through databind.
 * Unknown fields are skipped, as before; a wrong token type or an unknown enum name is an {@link IOException}
 * (the store reports it as corruption at that frame). Stateless, thread-safe.
 */
final class RecordDeserializer extends JsonDeserializer<Records.Rec> {
    private static final Map<String, ClientStatus> CLIENT = names(ClientStatus.values());
    private static final Map<String, DesiredStatus> DESIRED = names(DesiredStatus.values());
    private static final Map<String, TaskLifeState> LIFE = names(TaskLifeState.values());
    private static final EventCodec.Deser EVENTS = new EventCodec.Deser();

    @Override
    public Records.Rec deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
        expect(p, p.currentToken(), JsonToken.START_OBJECT, "record");
        String type = null;
        String id = null;
        Boolean full = null;
        Job job = null;
        Long ref = null;
        Records.Header header = null;
        Map<String, Records.TaskDelta> tasks = null;
        String task = null;
        Map<String, String> handle = null;
        Long gen = null;
        Long count = null;
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            switch (field) {
                case "t" -> type = string(p, t);
                case "id" -> id = string(p, t);
                case "full" -> full = bool(p, t);
                case "job" -> job = t == JsonToken.VALUE_NULL ? null : ctx.readValue(p, Job.class);
                case "ref" -> ref = longValue(p, t);
                case "h" -> header = t == JsonToken.VALUE_NULL ? null : header(p, t, ctx);
                case "tasks" -> tasks = t == JsonToken.VALUE_NULL ? null : tasks(p, t);
                case "task" -> task = string(p, t);
                case "handle" -> handle = t == JsonToken.VALUE_NULL ? null : stringMap(p, t);
                case "gen" -> gen = longValue(p, t);
                case "count" -> count = longValue(p, t);
                default -> p.skipChildren();
            }
        }
        return new Records.Rec(type, id, full, job, ref, header, tasks, task, handle, gen, count);
    }

    private static Records.Header header(JsonParser p, JsonToken start, DeserializationContext ctx)
            throws IOException {
        expect(p, start, JsonToken.START_OBJECT, "h");
        String name = null;
        String jobId = null;
        String group = null;
        Integer index = null;
        ClientStatus cs = null;
        String cd = null;
        DesiredStatus ds = null;
        String dd = null;
        Long ct = null;
        Long mt = null;
        io.drover.core.state.AllocatedResources res = null;
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            switch (field) {
                case "name" -> name = string(p, t);
                case "job" -> jobId = string(p, t);
                case "group" -> group = string(p, t);
                case "index" -> index = t == JsonToken.VALUE_NULL ? null : Math.toIntExact(longValue(p, t));
                case "cs" -> cs = named(p, t, CLIENT, "cs");
                case "cd" -> cd = string(p, t);
                case "ds" -> ds = named(p, t, DESIRED, "ds");
                case "dd" -> dd = string(p, t);
                case "ct" -> ct = longValue(p, t);
                case "mt" -> mt = longValue(p, t);
                case "res" -> res = t == JsonToken.VALUE_NULL ? null
                        : ctx.readValue(p, io.drover.core.state.AllocatedResources.class);
                default -> p.skipChildren();
            }
        }
        return new Records.Header(name, jobId, group, index, cs, cd, ds, dd, ct, mt, res);
    }

    private static Map<String, Records.TaskDelta> tasks(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_OBJECT, "tasks");
        Map<String, Records.TaskDelta> out = new LinkedHashMap<>();
        for (String name = p.nextFieldName(); name != null; name = p.nextFieldName()) {
            out.put(name, delta(p, p.nextToken()));
        }
        return out;
    }

    private static Records.TaskDelta delta(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_OBJECT, "task delta");
        int from = 0;
        Records.TaskFields fields = null;
        List<TaskEvent> events = null;
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            switch (field) {
                case "from" -> from = t == JsonToken.VALUE_NULL ? 0 : Math.toIntExact(longValue(p, t));
                case "f" -> fields = t == JsonToken.VALUE_NULL ? null : fields(p, t);
                case "ev" -> events = t == JsonToken.VALUE_NULL ? null : events(p, t);
                default -> p.skipChildren();
            }
        }
        return new Records.TaskDelta(from, fields, events);
    }

    private static Records.TaskFields fields(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_OBJECT, "task fields");
        TaskLifeState state = null;
        boolean failed = false;
        int restarts = 0;
        Long lastRestart = null;
        Long startedAt = null;
        Long finishedAt = null;
        for (String field = p.nextFieldName(); field != null; field = p.nextFieldName()) {
            JsonToken t = p.nextToken();
            switch (field) {
                case "state" -> state = named(p, t, LIFE, "state");
                case "failed" -> failed = Boolean.TRUE.equals(bool(p, t));
                case "restarts" -> restarts = t == JsonToken.VALUE_NULL ? 0 : Math.toIntExact(longValue(p, t));
                case "lastRestart" -> lastRestart = longValue(p, t);
                case "startedAt" -> startedAt = longValue(p, t);
                case "finishedAt" -> finishedAt = longValue(p, t);
                default -> p.skipChildren();
            }
        }
        return new Records.TaskFields(state, failed, restarts, lastRestart, startedAt, finishedAt);
    }

    private static List<TaskEvent> events(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_ARRAY, "ev");
        List<TaskEvent> out = new ArrayList<>();
        for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken()) {
            out.add(EVENTS.deserialize(p, null));
        }
        return out;
    }

    private static Map<String, String> stringMap(JsonParser p, JsonToken start) throws IOException {
        expect(p, start, JsonToken.START_OBJECT, "handle");
        Map<String, String> out = new LinkedHashMap<>();
        for (String k = p.nextFieldName(); k != null; k = p.nextFieldName()) {
            out.put(k, string(p, p.nextToken()));
        }
        return out;
    }

    private static String string(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(p, t, JsonToken.VALUE_STRING, p.currentName());
        return p.getText();
    }

    private static Boolean bool(JsonParser p, JsonToken t) throws IOException {
        return switch (t) {
            case VALUE_NULL -> null;
            case VALUE_TRUE -> Boolean.TRUE;
            case VALUE_FALSE -> Boolean.FALSE;
            default -> throw new IOException("expected a boolean for " + p.currentName() + ", got " + t);
        };
    }

    private static Long longValue(JsonParser p, JsonToken t) throws IOException {
        if (t == JsonToken.VALUE_NULL) {
            return null;
        }
        expect(p, t, JsonToken.VALUE_NUMBER_INT, p.currentName());
        return p.getLongValue();
    }

    private static <E> E named(JsonParser p, JsonToken t, Map<String, E> byName, String what) throws IOException {
        String name = string(p, t);
        if (name == null) {
            return null;
        }
        E e = byName.get(name);
        if (e == null) {
            throw new IOException("unknown " + what + " \"" + name + "\"");
        }
        return e;
    }

    private static void expect(JsonParser p, JsonToken got, JsonToken wanted, String what) throws IOException {
        if (got != wanted) {
            throw new IOException("expected " + wanted + " for " + what + ", got " + got);
        }
    }

    private static <E extends Enum<E>> Map<String, E> names(E[] values) {
        Map<String, E> out = new HashMap<>();
        for (E e : values) {
            out.put(wire(e), e);
        }
        return Map.copyOf(out);
    }

    private static String wire(Enum<?> e) {
        if (e instanceof ClientStatus c) {
            return c.wireName();
        }
        if (e instanceof DesiredStatus d) {
            return d.wireName();
        }
        return ((TaskLifeState) e).wireName();
    }
}
