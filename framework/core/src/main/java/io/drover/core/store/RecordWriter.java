package io.drover.core.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.drover.core.event.TaskEvent;
import java.io.IOException;
import java.io.OutputStream;
import java.util.List;
import java.util.Map;

/**
 * Writes a {@link Records.Rec} with hand-written streaming code: the same bytes as Jackson's reflective record
 * serialisation ({@code RecordWriterTest} compares them), field for field in component order, absent (null) fields
 * left out, {@link Records.TaskFields} always whole. The store's writer thread encodes every allocation version,
 * and databind's bean path (property writers, a serializer provider per value, a new generator per record) was
 * about a third of that thread's CPU (docs/performance.md, "Issue 18, item 4"). Jobs and allocated resources (a
 * record per distinct job; resources only when ports change) still go through the mapper. Not thread-safe: one
 * instance per {@link RecordCodec}, used by the store's writer thread only.
 */
final class RecordWriter {
    private static final EventCodec.Ser EVENTS = new EventCodec.Ser();

    private final ObjectMapper mapper;

    RecordWriter(ObjectMapper mapper) {
        this.mapper = mapper;
    }

    void write(Records.Rec r, OutputStream out) throws IOException {
        try (JsonGenerator g = mapper.createGenerator(out)) {
            g.writeStartObject();
            string(g, "t", r.type());
            string(g, "id", r.id());
            if (r.full() != null) {
                g.writeBooleanField("full", r.full());
            }
            if (r.job() != null) {
                g.writeFieldName("job");
                mapper.writeValue(g, r.job());
            }
            number(g, "ref", r.jobRef());
            if (r.header() != null) {
                g.writeFieldName("h");
                header(g, r.header());
            }
            if (r.tasks() != null) {
                g.writeFieldName("tasks");
                g.writeStartObject();
                for (Map.Entry<String, Records.TaskDelta> e : r.tasks().entrySet()) {
                    g.writeFieldName(e.getKey());
                    task(g, e.getValue());
                }
                g.writeEndObject();
            }
            string(g, "task", r.task());
            if (r.handle() != null) {
                g.writeFieldName("handle");
                g.writeStartObject();
                for (Map.Entry<String, String> e : r.handle().entrySet()) {
                    g.writeFieldName(e.getKey());
                    if (e.getValue() == null) {
                        g.writeNull();
                    } else {
                        g.writeString(e.getValue());
                    }
                }
                g.writeEndObject();
            }
            number(g, "gen", r.gen());
            number(g, "count", r.count());
            g.writeEndObject();
        }
    }

    private void header(JsonGenerator g, Records.Header h) throws IOException {
        g.writeStartObject();
        string(g, "name", h.name());
        string(g, "job", h.jobId());
        string(g, "group", h.taskGroup());
        if (h.index() != null) {
            g.writeNumberField("index", h.index());
        }
        string(g, "cs", h.clientStatus() == null ? null : h.clientStatus().wireName());
        string(g, "cd", h.clientDescription());
        string(g, "ds", h.desiredStatus() == null ? null : h.desiredStatus().wireName());
        string(g, "dd", h.desiredDescription());
        number(g, "ct", h.createTime());
        number(g, "mt", h.modifyTime());
        if (h.resources() != null) {
            g.writeFieldName("res");
            mapper.writeValue(g, h.resources());
        }
        g.writeEndObject();
    }

    private static void task(JsonGenerator g, Records.TaskDelta d) throws IOException {
        g.writeStartObject();
        g.writeNumberField("from", d.from());
        if (d.fields() != null) {
            Records.TaskFields f = d.fields();
            g.writeFieldName("f");
            g.writeStartObject();
            g.writeFieldName("state");
            if (f.state() == null) {
                g.writeNull();
            } else {
                g.writeString(f.state().wireName());
            }
            g.writeBooleanField("failed", f.failed());
            g.writeNumberField("restarts", f.restarts());
            nullableNumber(g, "lastRestart", f.lastRestart());
            nullableNumber(g, "startedAt", f.startedAt());
            nullableNumber(g, "finishedAt", f.finishedAt());
            g.writeEndObject();
        }
        List<TaskEvent> events = d.events();
        if (events != null) {
            g.writeFieldName("ev");
            g.writeStartArray();
            for (TaskEvent e : events) {
                EVENTS.serialize(e, g, null);
            }
            g.writeEndArray();
        }
        g.writeEndObject();
    }

    private static void string(JsonGenerator g, String name, String value) throws IOException {
        if (value != null) {
            g.writeStringField(name, value);
        }
    }

    private static void number(JsonGenerator g, String name, Long value) throws IOException {
        if (value != null) {
            g.writeNumberField(name, value);
        }
    }

    private static void nullableNumber(JsonGenerator g, String name, Long value) throws IOException {
        g.writeFieldName(name);
        if (value == null) {
            g.writeNull();
        } else {
            g.writeNumber(value);
        }
    }
}
