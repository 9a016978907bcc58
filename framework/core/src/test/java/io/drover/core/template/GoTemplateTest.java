package io.drover.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.time.Instant;
import java.util.Map;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;
import org.junit.jupiter.api.Test;

/** Table tests of the Go text/template subset: each row is a template and what Go renders for it. */
class GoTemplateTest {
    private static final Map<String, String> ENV = Map.of("NOMAD_PORT_http", "20001", "NAME", "web",
            "LIST", "a,b,c", "JSON", "{\"x\":1,\"y\":[\"p\",\"q\"],\"m\":{\"k\":\"v\"}}", "EMPTY", "");
    private static final Instant NOW = Instant.parse("2026-12-02T01:02:03Z");

    private static String render(String t) throws TemplateException {
        return GoTemplate.parse("t", t).render(GoTemplate.envOnly(ENV::get), NOW, false);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '~', textBlock = """
            plain text => plain text
            {{ env "NAME" }}:{{ env "NOMAD_PORT_http" }} => web:20001
            {{ env "MISSING" }}x => x
            {{ envOrDefault "MISSING" "dflt" }} => dflt
            {{ "a" }}{{/* comment */}}{{ "b" }} => ab
            x  {{- "y" -}}  z => xyz
            {{ if eq (env "NAME") "web" }}yes{{ else }}no{{ end }} => yes
            {{ if eq 1 2 }}a{{ else if eq 2 2 }}b{{ else }}c{{ end }} => b
            {{ if and 1 "" }}t{{ else }}f{{ end }} => f
            {{ or "" 0 "x" }} => x
            {{ not false }} => true
            {{ range $i, $v := split "," (env "LIST") }}{{ $i }}={{ $v }};{{ end }} => 0=a;1=b;2=c;
            {{ range split "," "" }}x{{ else }}none{{ end }} => none
            {{ $x := "one" }}{{ $x = "two" }}{{ $x }} => two
            {{ with env "NAME" }}[{{ . }}]{{ end }} => [web]
            {{ with env "EMPTY" }}[{{ . }}]{{ else }}empty{{ end }} => empty
            {{ (parseJSON (env "JSON")).x }} => 1
            {{ with parseJSON (env "JSON") }}{{ index .y 1 }} {{ .m.k }}{{ end }} => q v
            {{ range $k, $v := (parseJSON (env "JSON")).m }}{{ $k }}->{{ $v }}{{ end }} => k->v
            {{ parseJSON (env "JSON") | toJSON }} => {"x":1,"y":["p","q"],"m":{"k":"v"}}
            {{ "Hello" | toUpper }} {{ "HeLLo" | toLower }} => HELLO hello
            {{ "  pad  " | trimSpace }}| => pad|
            {{ join "-" (split "," "a,b") }} => a-b
            {{ "a.b.c" | replaceAll "." "/" }} => a/b/c
            {{ if "abc" | contains "b" }}in{{ end }} => in
            {{ add 2 3 }} {{ 10 | subtract 3 }} {{ multiply 4 5 }} {{ 20 | divide 4 }} {{ 7 | modulo 3 }} => 5 7 20 5 1
            {{ add 1.5 1 }} => 2.5
            {{ "hi" | base64Encode }} {{ "aGk=" | base64Decode }} => aGk= hi
            {{ printf "%s-%d-%05.2f-%q-%v" "a" 7 3.14159 "q" true }} => a-7-03.14-"q"-true
            {{ print 1 2 "x" 3 }} => 1 2x3
            {{ len "héllo" }} {{ len (split "," "a,b") }} => 6 2
            {{ lt 1 2 }} {{ ge "b" "a" }} {{ ne 1 1 }} => true true false
            {{ timestamp }} => 2026-12-02T01:02:03Z
            {{ timestamp "2006-01-02 15:04:05" }} => 2026-12-02 01:02:03
            {{ timestamp "unix" }} => 1796173323
            {{ define "T" }}<{{ . }}>{{ end }}{{ template "T" "x" }} => <x>
            {{ block "B" "y" }}[{{ . }}]{{ end }} => [y]
            {{ parseInt "42" | add 1 }} {{ parseBool "true" }} => 43 true
            {{ .missing }} => <no value>
            {{ "a" | toTitle }}{{ "b c" | toTitle }} => AB C
            """)
    void rendersAsGoDoes(String template, String expected) throws TemplateException {
        assertThat(render(template)).isEqualTo(expected);
    }

    @Test
    void customDelimitersLeaveTheDefaultOnesAsText() throws TemplateException {
        GoTemplate t = GoTemplate.parse("t", "{{ not an action }} [[ env \"NAME\" ]]", "[[", "]]");
        assertThat(t.render(GoTemplate.envOnly(ENV::get), NOW, false)).isEqualTo("{{ not an action }} web");
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '~', textBlock = """
            {{ key "service/x" }} => t:1: function "key" needs Consul
            {{ with secret "kv/x" }}{{ end }} => t:1: function "secret" needs Vault
            {{ range service "web" }}{{ end }} => t:1: function "service" needs Consul
            {{ pkiCert "pki/issue" }} => t:1: function "pkiCert" needs Vault
            ~x\n{{ nope 1 }}~ => t:2: function "nope" not defined
            {{ if true }}no end => t:1: {{if}} without {{end}}
            {{ "unterminated }} => unclosed action
            {{ end }} => unexpected {{end}}
            """)
    void refusesInOneLineBeforeRendering(String template, String message) {
        assertThatThrownBy(() -> GoTemplate.parse("t", template.replace("\\n", "\n")))
                .isInstanceOf(TemplateException.class).hasMessageContaining(message);
    }

    @Test
    void errorOnMissingKeyFailsTheRender() throws TemplateException {
        GoTemplate t = GoTemplate.parse("t", "{{ (parseJSON \"{}\").nope }}");
        assertThat(t.render(GoTemplate.envOnly(ENV::get), NOW, false)).isEqualTo("<no value>");
        assertThatThrownBy(() -> t.render(GoTemplate.envOnly(ENV::get), NOW, true))
                .hasMessageContaining("map has no entry for key \"nope\"");
    }

    @Test
    void runtimeErrorsNameTheLine() throws TemplateException {
        GoTemplate t = GoTemplate.parse("t", "a\nb {{ 1 | divide 0 }}");
        assertThatThrownBy(() -> t.render(GoTemplate.envOnly(ENV::get), NOW, false))
                .hasMessage("t:2: divide: division by zero");
        assertThatThrownBy(() -> render("{{ file \"/etc/passwd\" }}")).hasMessageContaining("cannot be read");
    }
}
