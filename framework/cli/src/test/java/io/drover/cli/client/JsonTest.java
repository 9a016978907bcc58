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
            assertThatThrownBy(() -> Json.parse(bad)).as(bad).isInstanceOf(JsonText.Malformed.class);
            assertThatThrownBy(() -> MAPPER.readTree(bad)).as(bad).isInstanceOf(JsonProcessingException.class);
        }
    }

    /**
     * {@link JsonText} reads what Jackson reads, as Jackson does, and refuses what it refuses: random JSON values
     * (every kind, strings with escapes and non-ASCII text, numbers at every size), then random one-character
     * edits of them, on both readers.
     */
    @Test
    void randomTextsAndTheirEditsReadAsJacksonReadsThem() throws Exception {
        java.util.Random random = new java.util.Random(14);
        int refused = 0;
        for (int n = 0; n < 3000; n++) {
            String text = randomValue(random, 0);
            compare(text, MAPPER.readTree(text), Json.parse(text));
            for (int e = 0; e < 5; e++) {
                refused += sameVerdict(edit(random, text)) ? 0 : 1;
            }
        }
        assertThat(refused).as("edits that both readers refused").isGreaterThan(1000);
    }

    private static final String HIGH = String.valueOf((char) 0xd83d);
    private static final String LOW = String.valueOf((char) 0xde00);

    @Test
    void tokensAtTheirEdgesReadAsJacksonReadsThem() throws Exception {
        for (String text : new String[] {"12 ", " 12", "12]", "12}", "12,", "12a", "1.5.3", "-", "-0", "-01", "01",
            "0x10", "1.", ".5", "1e", "1e+", "1E+2", "1e-0", "+1", "[01]", "[1.]", "[-]", "[1e5]", "[12a]", "true]",
            "true,", "truex", "true1", "nulls", "null}", "[true]", "[truex]", "NaN", "Infinity", "'a'", "{a: 1}",
            "{\"a\": 1,}", "[1,]", "[,1]", "{\"a\"}", "\"\\x\"", "\"\\u00G0\"", "\"\\u12\"", "\"a\tb\"",
            "\"\u0001\"", "\"\\ud83d\\ude00\"", "\"\u00e9\u4e2d\"", "{\"a\":1} trailing", "[] []", "\u00a012",
            "1/2", "/* c */ 1", "# c\n1", "[1 2]", "{\"a\" : 1 , \"b\" : [ ] }", "\f1", "[1\u000b]",
            "{\"\\ude00\":1}", "{\"\\ud83d\":1}", "{\"\\ud83dx\":1}", "{\"\\ud83d\\u0041\":1}",
            "{\"\\ud83d\\ude00\":1}", "{\"" + HIGH + "\\ude00\":1}", "{\"\\ud83d" + LOW + "\":1}",
            "{\"" + LOW + "\":1}", "\"\\ude00\\ud83d\"", "\"\\ud83d\"",
            "9".repeat(1000), "9".repeat(1001), "[".repeat(999) + "]".repeat(999),
            "[".repeat(1000) + "]".repeat(1000), "[".repeat(1001) + "]".repeat(1001)}) {
            assertThat(sameVerdict(text)).as("both readers accept or refuse " + abbreviate(text)).isNotNull();
        }
    }

    /** Whether Jackson accepted {@code text}; fails the test when {@link Json} disagrees or reads otherwise. */
    private static Boolean sameVerdict(String text) throws Exception {
        JsonNode expected;
        try {
            expected = MAPPER.readTree(text);
        } catch (JsonProcessingException refused) {
            try {
                Json.parse(text);
            } catch (JsonText.Malformed alsoRefused) {
                return false;
            }
            throw new AssertionError("refused by Jackson (" + refused.getOriginalMessage() + "), read: "
                    + abbreviate(text));
        }
        Json actual;
        try {
            actual = Json.parse(text);
        } catch (java.io.IOException e) {
            throw new AssertionError("read by Jackson, refused (" + e.getMessage() + "): " + abbreviate(text));
        }
        compare(abbreviate(text), expected, actual);
        return true;
    }

    private static String abbreviate(String text) {
        return text.length() > 80 ? text.substring(0, 80) + "... (" + text.length() + " chars)" : text;
    }

    private static final String PIECES = "{}[]\",:\\ntrufalse0123456789-+.eE \t\nxu'/#";

    private static String edit(java.util.Random r, String text) {
        int at = r.nextInt(text.length() + 1);
        char c = PIECES.charAt(r.nextInt(PIECES.length()));
        return switch (r.nextInt(3)) {
            case 0 -> text.substring(0, at) + c + text.substring(at);
            case 1 -> at < text.length() ? text.substring(0, at) + text.substring(at + 1) : text + c;
            default -> at < text.length() ? text.substring(0, at) + c + text.substring(at + 1) : text + c;
        };
    }

    private static String randomValue(java.util.Random r, int depth) {
        int kind = r.nextInt(depth > 4 ? 7 : 9);
        String space = r.nextInt(4) == 0 ? " \n\t\r".substring(r.nextInt(4)) : "";
        return space + switch (kind) {
            case 0 -> r.nextBoolean() ? "true" : r.nextBoolean() ? "false" : "null";
            case 1, 2 -> randomString(r);
            case 3 -> Long.toString(r.nextInt(3) == 0 ? r.nextLong() : r.nextInt(2001) - 1000);
            case 4 -> new java.math.BigInteger(64 + r.nextInt(80), r).toString() + (r.nextBoolean() ? "" : "0");
            case 5 -> (r.nextBoolean() ? "-" : "") + r.nextInt(1000) + (r.nextBoolean() ? "." + r.nextInt(100000) : "")
                    + (r.nextBoolean() ? "" : "eE".charAt(r.nextInt(2)) + (r.nextBoolean() ? "-" : "+")
                    + r.nextInt(400));
            case 6 -> Double.toString(r.nextDouble() * Math.pow(10, r.nextInt(40) - 20));
            case 7 -> {
                StringBuilder sb = new StringBuilder("[");
                for (int k = r.nextInt(5); k > 0; k--) {
                    sb.append(randomValue(r, depth + 1)).append(k > 1 ? "," : "");
                }
                yield sb.append(space).append(']').toString();
            }
            default -> {
                StringBuilder sb = new StringBuilder("{");
                for (int k = r.nextInt(5); k > 0; k--) {
                    sb.append(randomString(r)).append(space).append(':')
                            .append(randomValue(r, depth + 1)).append(k > 1 ? "," : "");
                }
                yield sb.append('}').toString();
            }
        } + space;
    }

    private static String randomString(java.util.Random r) {
        String[] escapes = {"\\\"", "\\\\", "\\/", "\\b", "\\f", "\\n", "\\r", "\\t"};
        StringBuilder sb = new StringBuilder("\"");
        for (int k = r.nextInt(12); k > 0; k--) {
            switch (r.nextInt(10)) {
                case 0 -> sb.append(escapes[r.nextInt(escapes.length)]);
                case 1 -> { // no surrogate: a name may hold one only in an escaped pair (tested above)
                    int u = r.nextInt(0x10000 - 0x800);
                    sb.append(String.format("\\u%04x", u < 0xd800 ? u : u + 0x800));
                }
                case 2 -> sb.append((char) (0xa0 + r.nextInt(0x3000)));
                case 3 -> sb.append("ab");
                default -> {
                    char c = (char) (' ' + r.nextInt(95));
                    sb.append(c == '"' || c == '\\' ? 'q' : c);
                }
            }
        }
        return sb.append('"').toString();
    }
}
