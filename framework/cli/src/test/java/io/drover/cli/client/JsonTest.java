package io.drover.cli.client;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.core.JsonProcessingException;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/** {@link Json} reads as databind's {@code readTree} tree does, method by method, on every kind of value. */
class JsonTest {
    private static final ObjectMapper MAPPER = new ObjectMapper();
    private static final String[] VALUES = {"{}", "[]", "{\"a\": 1, \"b\": [1, 2], \"a\": \"x\"}", "[1, \"2\", null]",
        "\"text\"", "\"\"", "\" true \"", "\"true\"", "\"false\"", "\"12\"", "\" 12 \"", "\"-7\"", "\"1e3\"",
        "\"12.5\"", "\"0x1F\"", "\"99999999999\"", "\"abc\"", "\"NaN\"", "0", "1", "-1", "2147483647", "2147483648",
        "-2147483649", "9223372036854775807", "9223372036854775808", "-9223372036854775809",
        "123456789012345678901234567890", "0.0", "-0.0", "1.5", "-2.75", "1e300", "1E-5", "3.9999999999",
        "4294967296.5", "true", "false", "null", "\"\\u00e9\\n\\t\\\"\"", "{\"k\": {\"n\": null}}"};
    private static final String[] FIELDS = {"a", "b", "k", "missing", ""};

    @Test
    void everyReadingMethodAgreesWithDatabind() throws Exception {
        for (String text : VALUES) {
            compare(text, MAPPER.readTree(text), Json.parse(text));
        }
    }

    private static void compare(String where, JsonNode expected, Json actual) {
        assertThat(actual.asText()).as(where + " asText").isEqualTo(expected.asText());
        assertThat(actual.asText("fallback")).as(where + " asText(fallback)").isEqualTo(expected.asText("fallback"));
        assertThat(actual.asLong()).as(where + " asLong").isEqualTo(expected.asLong());
        assertThat(actual.asInt()).as(where + " asInt").isEqualTo(expected.asInt());
        assertThat(Double.valueOf(actual.asDouble())).as(where + " asDouble").isEqualTo(Double.valueOf(expected.asDouble()));
        assertThat(actual.asBoolean()).as(where + " asBoolean").isEqualTo(expected.asBoolean());
        assertThat(actual.isNull()).as(where + " isNull").isEqualTo(expected.isNull());
        assertThat(actual.isMissingNode()).as(where + " isMissingNode").isEqualTo(expected.isMissingNode());
        assertThat(actual.isNumber()).as(where + " isNumber").isEqualTo(expected.isNumber());
        assertThat(actual.isTextual()).as(where + " isTextual").isEqualTo(expected.isTextual());
        assertThat(actual.isObject()).as(where + " isObject").isEqualTo(expected.isObject());
        assertThat(actual.isEmpty()).as(where + " isEmpty").isEqualTo(expected.isEmpty());
        for (String f : FIELDS) {
            assertThat(actual.has(f)).as(where + " has " + f).isEqualTo(expected.has(f));
            assertThat(actual.hasNonNull(f)).as(where + " hasNonNull " + f).isEqualTo(expected.hasNonNull(f));
            assertThat(actual.get(f) == null).as(where + " get " + f).isEqualTo(expected.get(f) == null);
            if (expected.get(f) != null || !expected.isMissingNode()) { // a missing value's path is itself
                compare(where + "." + f, expected.path(f), actual.path(f));
            }
        }
        List<JsonNode> e = new ArrayList<>();
        expected.forEach(e::add);
        List<Json> a = new ArrayList<>();
        actual.forEach(a::add);
        assertThat(a).as(where + " elements").hasSameSizeAs(e);
        for (int i = 0; i < e.size(); i++) {
            compare(where + "[" + i + "]", e.get(i), a.get(i));
        }
        List<String> names = new ArrayList<>();
        for (Iterator<Map.Entry<String, JsonNode>> it = expected.fields(); it.hasNext(); ) {
            names.add(it.next().getKey());
        }
        List<String> actualNames = new ArrayList<>();
        for (Iterator<Map.Entry<String, Json>> it = actual.fields(); it.hasNext(); ) {
            actualNames.add(it.next().getKey());
        }
        assertThat(actualNames).as(where + " fields").isEqualTo(names);
    }

    @Test
    void blankTextIsMissingAndBadTextFailsAsJackson() throws Exception {
        assertThat(Json.parse("").isMissingNode()).isTrue();
        assertThat(Json.parse("  ").isMissingNode()).isTrue();
        for (String bad : new String[] {"{", "[1,", "{\"a\" 1}", "nul", "\"open", "{\"a\": }"}) {
            assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(JsonProcessingException.class);
            assertThatThrownBy(() -> MAPPER.readTree(bad)).as(bad).isInstanceOf(JsonProcessingException.class);
        }
    }
}
