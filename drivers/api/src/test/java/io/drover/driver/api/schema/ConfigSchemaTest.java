package io.drover.driver.api.schema;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import io.drover.driver.api.ConfigProblem;
import java.time.Duration;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

class ConfigSchemaTest {
    static final ConfigSchema SCHEMA = ConfigSchema.of(
            Attribute.string("url").asRequired().describe("the URL to probe"),
            Attribute.duration("interval").withDefault("10s"),
            Attribute.integer("expect_status").withDefault(200),
            Attribute.number("ratio"),
            Attribute.bool("verbose"),
            Attribute.string("method").withDefault("GET").allowed("GET", "HEAD"),
            Attribute.stringList("args"),
            Attribute.stringMap("headers"),
            Block.of("tls", Attribute.bool("insecure"), Attribute.string("ca").asRequired()),
            BlockList.of("mount", Attribute.string("source").asRequired(), Attribute.string("target")).items(0, 2));

    @Test
    void convertsAsHcl2DoesAndAppliesDefaults() {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("url", "http://127.0.0.1/");
        raw.put("expect_status", "204");
        raw.put("ratio", "0.5");
        raw.put("verbose", "true");
        raw.put("args", List.of("a", 5L, true));
        raw.put("headers", Map.of("X-N", 1L));
        raw.put("tls", Map.of("ca", "ca.pem"));
        raw.put("mount", List.of(Map.of("source", "/a"), Map.of("source", "/b", "target", "/c")));
        ConfigView v = SCHEMA.view(raw);
        assertThat(v.string("url")).isEqualTo("http://127.0.0.1/");
        assertThat(v.duration("interval")).isEqualTo(Duration.ofSeconds(10));
        assertThat(v.integer("expect_status")).isEqualTo(204L);
        assertThat(v.number("ratio")).isEqualTo(0.5);
        assertThat(v.bool("verbose")).isTrue();
        assertThat(v.string("method")).isEqualTo("GET");
        assertThat(v.stringList("args")).containsExactly("a", "5", "true");
        assertThat(v.stringMap("headers")).containsEntry("X-N", "1");
        assertThat(v.block("tls").orElseThrow().string("ca")).isEqualTo("ca.pem");
        assertThat(v.block("tls").orElseThrow().isSet("insecure")).isFalse();
        assertThat(v.blocks("mount")).hasSize(2);
        assertThat(v.blocks("mount").get(1).string("target")).isEqualTo("/c");
        assertThat(v.asMap()).containsEntry("expect_status", 204L).containsKey("mount");
    }

    @Test
    void reportsEveryProblemWithItsKeyPathSorted() {
        Map<String, Object> raw = new LinkedHashMap<>();
        raw.put("interval", "5 seconds");
        raw.put("expect_status", 2.5);
        raw.put("verbose", "yes");
        raw.put("method", "POST");
        raw.put("args", List.of("a", Map.of()));
        raw.put("headers", "x");
        raw.put("tls", Map.of("insecure", 1L));
        raw.put("mount", List.of(Map.of("target", "/x"), Map.of("source", "/a"), Map.of("source", "/b")));
        raw.put("colour", "red");
        List<ConfigProblem> problems = SCHEMA.validate(raw).problems();
        assertThat(problems).extracting(ConfigProblem::key).containsExactly("args[1]", "colour", "expect_status",
                "headers", "interval", "method", "mount", "mount[0].source", "tls.ca", "tls.insecure", "url",
                "verbose");
        assertThat(problems).extracting(ConfigProblem::message).contains(
                "must be a string, found a block or map", "unknown key (allowed: url, interval, expect_status, ratio, verbose, method, args, headers, tls, mount)",
                "must be a whole number, found 2.5",
                "must be a map of strings, found \"x\"",
                "must be a duration like \"5s\" or \"1m30s\", not negative, found \"5 seconds\"",
                "must be one of \"GET\", \"HEAD\", found \"POST\"", "takes at most 2 block(s), got 3",
                "is required", "must be true or false, found 1", "must be true or false, found \"yes\"");
        assertThat(SCHEMA.validate(raw).view()).isNull();
        assertThatThrownBy(() -> SCHEMA.view(raw)).isInstanceOf(InvalidConfigException.class)
                .hasMessageContaining("url: is required")
                .satisfies(e -> assertThat(((InvalidConfigException) e).problems()).hasSize(12));
    }

    @Test
    void singleBlockAndRepeatedBlockShapes() {
        ConfigSchema s = ConfigSchema.of(Block.of("b", Attribute.string("x")).asRequired(),
                BlockList.of("l", Attribute.string("y")).items(1, 0));
        assertThat(s.validate(Map.of()).problems()).extracting(ConfigProblem::message)
                .containsExactly("is required (a b { ... } block)", "needs at least 1 block(s), got 0");
        assertThat(s.validate(Map.of("b", List.of(Map.of("x", "1")), "l", Map.of("y", "2"))).valid()).isTrue();
        assertThat(s.validate(Map.of("b", List.of(Map.of(), Map.of()), "l", List.of("z"))).problems())
                .containsExactly(new ConfigProblem("b", "must be a single block, got 2"),
                        new ConfigProblem("l[0]", "must be a block l { ... }, found \"z\""));
    }

    @Test
    void checkDefersInterpolatedValuesToStart() {
        Map<String, Object> raw = Map.of("url", "${NOMAD_META_url}", "interval", "${NOMAD_META_every}",
                "expect_status", "${NOMAD_META_code}", "bogus", "${x}");
        assertThat(SCHEMA.check(raw, "the http-probe driver").problems())
                .containsExactly(new ConfigProblem("bogus", "unknown key for the http-probe driver (allowed: url, interval,"
                        + " expect_status, ratio, verbose, method, args, headers, tls, mount)"));
        assertThat(SCHEMA.validate(raw).problems()).extracting(ConfigProblem::key)
                .containsExactly("bogus", "expect_status", "interval");
    }

    @Test
    void quotedAndUnquotedScalarsConvertLikeHcl2() {
        ConfigSchema s = ConfigSchema.of(Attribute.string("s"), Attribute.integer("i"), Attribute.number("n"),
                Attribute.bool("b"), Attribute.duration("d"));
        ConfigView v = s.view(Map.of("s", 5L, "i", 7.0, "n", 3L, "b", false, "d", "1m30s"));
        assertThat(v.string("s")).isEqualTo("5");
        assertThat(v.integer("i")).isEqualTo(7L);
        assertThat(v.number("n")).isEqualTo(3.0);
        assertThat(v.duration("d")).isEqualTo(Duration.ofSeconds(90));
        assertThat(s.view(Map.of("d", 0L)).duration("d")).isZero();
        assertThat(s.validate(Map.of("i", "1e3", "n", "x", "d", "-1s", "s", List.of())).problems())
                .extracting(ConfigProblem::key).containsExactly("d", "n", "s");
        assertThat(s.view(Map.of("i", "1e3")).integer("i")).isEqualTo(1000L);
        assertThat(s.validate(Map.of("i", "99999999999999999999")).valid()).isFalse();
    }

    @Test
    void mapsOneToOneOntoHclspec() {
        ConfigSchema s = ConfigSchema.of(Attribute.string("url").asRequired(),
                Attribute.duration("interval").withDefault("10s"),
                Block.of("tls", Attribute.bool("insecure")),
                BlockList.of("mount", Attribute.string("source")).items(1, 3));
        assertThat(s.hclspec()).isEqualTo("""
                Object {
                  attributes "url" {
                    Attr {
                      name = "url"
                      type = "string"
                      required = true
                    }
                  }
                  attributes "interval" {
                    Default {
                      Attr {
                        name = "interval"
                        type = "string"
                        required = false
                      }
                      Literal {
                        value = "\\"10s\\""
                      }
                    }
                  }
                  attributes "tls" {
                    Block {
                      name = "tls"
                      required = false
                      Object {
                        attributes "insecure" {
                          Attr {
                            name = "insecure"
                            type = "bool"
                            required = false
                          }
                        }
                      }
                    }
                  }
                  attributes "mount" {
                    BlockList {
                      name = "mount"
                      min_items = 1
                      max_items = 3
                      Object {
                        attributes "source" {
                          Attr {
                            name = "source"
                            type = "string"
                            required = false
                          }
                        }
                      }
                    }
                  }
                }""");
        assertThat(ValueType.INT.hclType()).isEqualTo("number");
        assertThat(ValueType.DURATION.hclType()).isEqualTo("string");
        assertThat(ValueType.MAP_STRING.hclType()).isEqualTo("map(string)");
    }

    @Test
    void describesItselfForStatusAndJson() {
        assertThat(SCHEMA.lines()).contains("url  string, required  the URL to probe",
                "interval  duration, default \"10s\"", "method  string, default \"GET\", one of GET|HEAD",
                "mount  blocks, at most 2", "  source  string, required");
        assertThat(SCHEMA.describe().get(1)).containsEntry("name", "interval").containsEntry("type", "duration")
                .containsEntry("default", "\"10s\"").containsEntry("kind", "attribute");
    }

    @Test
    void refusesABadDeclaration() {
        assertThatThrownBy(() -> Attribute.duration("d").withDefault("soon"))
                .hasMessageContaining("default of attribute \"d\"");
        assertThatThrownBy(() -> new Attribute("s", ValueType.STRING, true, "x", List.of(), ""))
                .hasMessageContaining("required and has a default");
        assertThatThrownBy(() -> ConfigSchema.of(Attribute.string("a"), Attribute.bool("a")))
                .hasMessageContaining("declared twice");
        assertThatThrownBy(() -> Attribute.string("1x")).hasMessageContaining("not a config key name");
        assertThatThrownBy(() -> SCHEMA.view(Map.of("url", "u")).bool("url")).isInstanceOf(
                IllegalArgumentException.class);
    }
}
