package io.drover.core.template;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.net.Inet4Address;
import java.net.NetworkInterface;
import java.time.Instant;
import java.util.Collections;
import java.util.Map;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/**
 * parseYAML, sprig_* and sockaddr: each row is a template and what consul-template (sprig v3, go-sockaddr) renders
 * for it.
 */
class MoreFunctionsTest {
    private static final Map<String, String> ENV = Map.of("YAML", "a: 1\nb:\n  - x\n  - y\nc:\n  d: true\n",
            "CSV", "b,a,c,a", "NAME", "web_server");
    private static final Instant NOW = Instant.parse("2026-12-02T01:02:03Z");

    private static String render(String t) throws TemplateException {
        return GoTemplate.parse("t", t).render(GoTemplate.envOnly(ENV::get), NOW, false);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiterString = " => ", quoteCharacter = '~', textBlock = """
            {{ (parseYAML (env "YAML")).a }} => 1
            {{ range (parseYAML (env "YAML")).b }}[{{ . }}]{{ end }} => [x][y]
            {{ (parseYAML (env "YAML")).c.d }} => true
            {{ with parseYAML "" }}x{{ else }}empty{{ end }} => empty
            {{ parseJSONList "[1,2]" | len }} => 2
            {{ "hello" | sprig_upper }} => HELLO
            {{ sprig_title "hello world" }} => Hello World
            {{ sprig_trimPrefix "web_" (env "NAME") }} => server
            {{ sprig_replace "_" "-" (env "NAME") }} => web-server
            {{ sprig_repeat 3 "ab" }} => ababab
            {{ sprig_substr 0 3 "drover" }} => dro
            {{ sprig_trunc 3 "drover" }} => dro
            {{ sprig_quote "a" "b" }} => ~"a" "b"~
            {{ sprig_squote "a" }} => 'a'
            {{ sprig_nindent 2 "x" | sprig_trim }} => x
            {{ sprig_splitList "," (env "CSV") | sprig_uniq | sprig_sortAlpha | sprig_join "-" }} => a-b-c
            {{ sprig_list 1 2 3 | sprig_last }} => 3
            {{ sprig_list 1 2 3 | sprig_rest | len }} => 2
            {{ sprig_has 2 (sprig_list 1 2 3) }} => true
            {{ sprig_without (sprig_list 1 2 3) 2 | sprig_join "," }} => 1,3
            {{ sprig_compact (sprig_list "a" "" "b") | sprig_join "," }} => a,b
            {{ $d := sprig_dict "k" "v" "n" 1 }}{{ sprig_get $d "k" }}{{ sprig_hasKey $d "n" }} => vtrue
            {{ sprig_keys (sprig_dict "b" 1 "a" 2) | sprig_sortAlpha | sprig_join "" }} => ab
            {{ $d := sprig_dict "a" 1 }}{{ $_ := sprig_set $d "b" 2 }}{{ len $d }} => 2
            {{ sprig_add 1 2 3 }} {{ sprig_sub 5 2 }} {{ sprig_mul 2 3 }} {{ sprig_div 7 2 }} {{ sprig_mod 7 2 }} => 6 3 6 3 1
            {{ sprig_max 3 9 4 }} {{ sprig_min 3 9 4 }} {{ sprig_add1 41 }} => 9 3 42
            {{ sprig_until 3 | sprig_join "," }} => 0,1,2
            {{ sprig_seq 3 }} => 1 2 3
            {{ sprig_default "dflt" "" }} {{ sprig_default "dflt" "set" }} => dflt set
            {{ sprig_coalesce "" "b" "c" }} => b
            {{ sprig_ternary "y" "n" true }} => y
            {{ sprig_empty "" }} => true
            {{ sprig_atoi "42" | sprig_add1 }} => 43
            {{ sprig_b64enc "drover" }} {{ sprig_b64dec "ZHJvdmVy" }} => ZHJvdmVy drover
            {{ sprig_sha256sum "x" | sprig_trunc 8 }} => 2d711642
            {{ sprig_toJson (sprig_list 1 "a") }} => [1,"a"]
            {{ (sprig_fromJson "{\\"k\\":3}").k }} => 3
            {{ sprig_now | sprig_date "2006-01-02" }} => 2026-12-02
            {{ sprig_now | sprig_unixEpoch }} => 1796173323
            {{ sprig_regexFindAll "[0-9]+" "a1b22c333" -1 | sprig_join "," }} => 1,22,333
            {{ sprig_snakecase "HelloWorld" }} {{ sprig_kebabcase "HelloWorld" }} {{ sprig_camelcase "hello_world" }} => hello_world hello-world HelloWorld
            """)
    void renders(String template, String expected) throws TemplateException {
        assertThat(render(template)).isEqualTo(expected);
    }

    @Test
    void badYamlIsOneLine() {
        assertThatThrownBy(() -> render("{{ parseYAML \"a: [\" }}"))
                .isInstanceOf(TemplateException.class).hasMessageContaining("parseYAML: ")
                .satisfies(e -> assertThat(e.getMessage()).doesNotContain("\n"));
    }

    @Test
    void anUnknownSprigFunctionIsRefusedAtParse() {
        assertThatThrownBy(() -> GoTemplate.parse("t", "{{ sprig_genPrivateKey \"rsa\" }}"))
                .isInstanceOf(TemplateException.class).hasMessageContaining("sprig_genPrivateKey");
    }

    @Test
    void sockaddrReadsTheNodesInterfaces() throws Exception {
        assertThat(render("{{ sockaddr \"GetInterfaceIP \\\"lo\\\"\" }}")).isEqualTo("127.0.0.1");
        assertThat(render("{{ sockaddr \"GetAllInterfaces | include \\\"flags\\\" \\\"loopback\\\" "
                + "| include \\\"type\\\" \\\"ipv4\\\" | attr \\\"address\\\"\" }}")).isEqualTo("127.0.0.1");
        // the default interface's first IPv4 address: one of this host's up, non-loopback IPv4 addresses
        java.util.List<String> candidates = new java.util.ArrayList<>();
        for (NetworkInterface ni : Collections.list(NetworkInterface.getNetworkInterfaces())) {
            if (ni.isUp() && !ni.isLoopback()) {
                ni.getInterfaceAddresses().stream().map(a -> a.getAddress()).filter(a -> a instanceof Inet4Address)
                        .forEach(a -> candidates.add(a.getHostAddress()));
            }
        }
        String privateOrPublic = render("{{ sockaddr \"GetPrivateIP\" }}{{ sockaddr \"GetPublicIP\" }}");
        if (candidates.isEmpty()) {
            assertThat(privateOrPublic).isEmpty();
        } else {
            assertThat(candidates).contains(privateOrPublic);
        }
        assertThatThrownBy(() -> render("{{ sockaddr \"GetNoSuchThing\" }}"))
                .hasMessageContaining("GetNoSuchThing");
    }
}
