package io.drover.core.store;

import com.fasterxml.jackson.core.JsonGenerator;
import com.fasterxml.jackson.core.JsonParser;
import com.fasterxml.jackson.core.JsonToken;
import com.fasterxml.jackson.databind.DeserializationContext;
import com.fasterxml.jackson.databind.JsonDeserializer;
import com.fasterxml.jackson.databind.JsonSerializer;
import com.fasterxml.jackson.databind.SerializerProvider;
import com.fasterxml.jackson.databind.module.SimpleModule;
import io.drover.core.event.TaskEvent;
import io.drover.core.event.TaskEventType;
import java.io.IOException;
import java.util.LinkedHashMap;
import java.util.Map;

/**
 * A task event in the store as a positional JSON array, in {@link TaskEvent}'s component order, with trailing
 * zero values ("", 0, false, empty map) left out: {@code ["Started",1700000000000000000,"Task started by client"]}.
 * Events are most of the store's bytes; arrays avoid repeating 18 field names and parse several times faster
 * than objects. Hand-written streaming code, no reflection.
 */
final class EventCodec {
    private EventCodec() {}

    static SimpleModule module() {
        return new SimpleModule("drover-store-events")
                .addSerializer(TaskEvent.class, new Ser())
                .addDeserializer(TaskEvent.class, new Deser());
    }

    private static Object[] fields(TaskEvent e) {
        return new Object[] {e.type().wireName(), e.time(), e.displayMessage(), e.details(), e.message(),
                e.failsTask(), e.restartReason(), e.setupError(), e.driverError(), e.exitCode(), e.signal(),
                e.killReason(), e.killTimeout(), e.killError(), e.startDelay(), e.failedSibling(), e.taskSignal(),
                e.taskSignalReason()};
    }

    private static boolean zero(Object v) {
        return v instanceof String s ? s.isEmpty()
                : v instanceof Map<?, ?> m ? m.isEmpty()
                : v instanceof Boolean b ? !b
                : v instanceof Number n && n.longValue() == 0;
    }

    static final class Ser extends JsonSerializer<TaskEvent> {
        @Override
        public void serialize(TaskEvent e, JsonGenerator g, SerializerProvider p) throws IOException {
            Object[] f = fields(e);
            int last = f.length - 1;
            while (last > 1 && zero(f[last])) {
                last--;
            }
            g.writeStartArray();
            for (int i = 0; i <= last; i++) {
                Object v = f[i];
                if (v instanceof String s) {
                    g.writeString(s);
                } else if (v instanceof Boolean b) {
                    g.writeBoolean(b);
                } else if (v instanceof Integer n) {
                    g.writeNumber(n);
                } else if (v instanceof Long n) {
                    g.writeNumber(n);
                } else {
                    g.writeStartObject();
                    for (Map.Entry<?, ?> d : ((Map<?, ?>) v).entrySet()) {
                        g.writeStringField((String) d.getKey(), (String) d.getValue());
                    }
                    g.writeEndObject();
                }
            }
            g.writeEndArray();
        }
    }

    static final class Deser extends JsonDeserializer<TaskEvent> {
        @Override
        public TaskEvent deserialize(JsonParser p, DeserializationContext ctx) throws IOException {
            if (p.currentToken() != JsonToken.START_ARRAY) {
                throw new IOException("a task event must be an array");
            }
            Object[] f = {"", 0L, "", Map.of(), "", false, "", "", "", 0, 0, "", 0L, "", 0L, "", "", ""};
            int i = 0;
            for (JsonToken t = p.nextToken(); t != JsonToken.END_ARRAY; t = p.nextToken(), i++) {
                if (i >= f.length) {
                    throw new IOException("a task event has at most " + f.length + " fields");
                }
                f[i] = switch (t) {
                    case VALUE_STRING -> p.getText();
                    case VALUE_TRUE -> Boolean.TRUE;
                    case VALUE_FALSE -> Boolean.FALSE;
                    case VALUE_NUMBER_INT -> f[i] instanceof Integer ? (Object) p.getIntValue() : p.getLongValue();
                    case START_OBJECT -> details(p);
                    default -> throw new IOException("unexpected " + t + " in a task event");
                };
            }
            return new TaskEvent(TaskEventType.fromWire((String) f[0]), (Long) f[1], (String) f[2], map(f[3]),
                    (String) f[4], (Boolean) f[5], (String) f[6], (String) f[7], (String) f[8], (Integer) f[9],
                    (Integer) f[10], (String) f[11], (Long) f[12], (String) f[13], (Long) f[14], (String) f[15],
                    (String) f[16], (String) f[17]);
        }

        private static Map<String, String> details(JsonParser p) throws IOException {
            Map<String, String> m = new LinkedHashMap<>();
            for (String k = p.nextFieldName(); k != null; k = p.nextFieldName()) {
                m.put(k, p.nextTextValue());
            }
            return m;
        }

        @SuppressWarnings("unchecked")
        private static Map<String, String> map(Object o) {
            return (Map<String, String>) o;
        }
    }
}
