package io.drover.core.spec.parse.hcl;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Map;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

/** HCL2 expressions, templates and functions, each evaluated as the value of one attribute. */
class HclExpressionTest {

    static HclEvaluation.Result evaluate(String text, HclInputs inputs) throws HclSyntaxException {
        return HclEvaluation.evaluate(HclParser.parse(text), inputs);
    }

    /** The value of {@code x} in {@code text}, after the file's variables and locals. */
    static Object x(String text) throws HclSyntaxException {
        HclEvaluation.Result r = evaluate(text, HclInputs.NONE);
        assertThat(r.problems()).isEmpty();
        return HclValues.of(r.body().attributes().stream().filter(a -> a.name().equals("x")).findFirst().orElseThrow().value());
    }

    static Object expr(String expression) throws HclSyntaxException {
        return x("x = " + expression + "\n");
    }

    static String json(Object v) throws HclValues.ValueException {
        return HclEncodingFunctions.json(v);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            1 + 2 * 3                                  | 7
            (1 + 2) * 3                                | 9
            10 / 4                                     | 2.5
            10 / 2                                     | 5
            7 % 3                                      | 1
            -3 + 1                                     | -2
            1 < 2 && 2 <= 2                            | true
            !(1 == 1) && 3 != 3                        | false
            "a" == "a"                                 | true
            1 > 2 ? "big" : "small"                    | `"small"`
            [1, 2, 3][1]                               | 2
            {a = 1, b = 2}["b"]                        | 2
            {a = {b = "deep"}}.a.b                     | `"deep"`
            [{n = 1}, {n = 2}][*].n                    | [1,2]
            [{n = 1}, {n = 2}].*.n                     | [1,2]
            [for s in ["a", "b"] : upper(s)]           | `["A","B"]`
            [for i, s in ["a", "b"] : "${i}${s}"]      | `["0a","1b"]`
            [for s in ["a", "bb", "c"] : s if length(s) == 1] | `["a","c"]`
            {for s in ["a", "b"] : s => upper(s)}      | `{"a":"A","b":"B"}`
            {for s in ["ax", "ay", "b"] : substr(s, 0, 1) => s...} | `{"a":["ax","ay"],"b":["b"]}`
            [for k, v in {b = 2, a = 1} : "${k}=${v}"] | `["a=1","b=2"]`
            "5" + 1                                    | 6
            "${1 + 1}"                                 | 2
            "n=${1 + 1}"                               | `"n=2"`
            """)
    void operatorsAndCollections(String expression, String expectedJson) throws Exception {
        assertThat(json(expr(expression))).isEqualTo(expectedJson);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', quoteCharacter = '`', textBlock = """
            format("%s-%03d-%.2f-%q-%v", "a", 7, 1.5, "q", true) | `"a-007-1.50-\\"q\\"-true"`
            formatlist("%s=%s", ["a", "b"], "x")       | `["a=x","b=x"]`
            join(",", ["a", "b"], ["c"])               | `"a,b,c"`
            split(",", "a,b,,c")                       | `["a","b","","c"]`
            lower("AbC")                               | `"abc"`
            upper("abc")                               | `"ABC"`
            title("hello world")                       | `"Hello World"`
            replace("a-b-c", "-", "+")                 | `"a+b+c"`
            regex_replace("a1b22", "[0-9]+", "#")      | `"a#b#"`
            regex("([a-z]+)-([0-9]+)", "web-42")       | `["web","42"]`
            regexall("[0-9]", "a1b2")                  | `["1","2"]`
            substr("hello", 1, 3)                      | `"ell"`
            trim("--a--", "-")                         | `"a"`
            trimprefix("v1.2", "v")                    | `"1.2"`
            trimsuffix("a.hcl", ".hcl")                | `"a"`
            trimspace("  a  ")                         | `"a"`
            chomp("a\\n\\n")                           | `"a"`
            indent(2, "a\\nb")                         | `"a\\n  b"`
            strlen("héllo")                            | 5
            strrev("abc")                              | `"cba"`
            concat([1], [2, 3])                        | [1,2,3]
            merge({a = 1}, {b = 2}, {a = 3})           | `{"a":3,"b":2}`
            lookup({a = 1}, "b", "dflt")               | `"dflt"`
            length({a = 1, b = 2})                     | 2
            keys({b = 1, a = 2})                       | `["a","b"]`
            values({b = 1, a = 2})                     | [2,1]
            contains(["a", "b"], "b")                  | true
            element(["a", "b"], 3)                     | `"b"`
            coalesce("", "x")                          | `"x"`
            compact(["a", "", "b"])                    | `["a","b"]`
            distinct([1, 2, 1])                        | [1,2]
            flatten([[1, [2]], 3])                     | [1,2,3]
            range(3)                                   | [0,1,2]
            range(1, 10, 4)                            | [1,5,9]
            reverse([1, 2])                            | [2,1]
            slice(["a", "b", "c"], 1, 3)               | `["b","c"]`
            sort(["b", "a"])                           | `["a","b"]`
            zipmap(["a", "b"], [1, 2])                 | `{"a":1,"b":2}`
            index(["a", "b"], "b")                     | 1
            chunklist([1, 2, 3], 2)                    | [[1,2],[3]]
            setunion(["a"], ["b", "a"])                | `["a","b"]`
            setintersection(["a", "b"], ["b"])         | `["b"]`
            setproduct(["a"], [1, 2])                  | `[["a",1],["a",2]]`
            abs(-3)                                    | 3
            ceil(1.2)                                  | 2
            floor(1.8)                                 | 1
            max(1, 5, 3)                               | 5
            min(4, 2)                                  | 2
            pow(2, 10)                                 | 1024
            signum(-5)                                 | -1
            parseint("ff", 16)                         | 255
            log(8, 2)                                  | 3
            tostring(5)                                | `"5"`
            tonumber("5")                              | 5
            tobool("true")                             | true
            tolist(["a"])                              | `["a"]`
            toset(["a", "a"])                          | `["a"]`
            tomap({a = 1})                             | `{"a":1}`
            jsonencode({a = [1, "b"]})                 | `"{\\"a\\":[1,\\"b\\"]}"`
            jsondecode("{\\"a\\": [1, true]}").a       | [1,true]
            base64encode("hi")                         | `"aGk="`
            base64decode("aGk=")                       | `"hi"`
            urlencode("a b&c")                         | `"a%20b%26c"`
            sha256("a")                                | `"ca978112ca1bbdcafac231b39a23dc4da786eff8147c4e72b9807785afee48bb"`
            md5("a")                                   | `"0cc175b9c0f1b6a831c399e269772661"`
            uuidv5("dns", "example.com")               | `"cfbff0d1-9375-5685-968c-48ce8b15ae17"`
            yamlencode({a = [1, "b"]})                 | `"\\"a\\":\\n  - 1\\n  - \\"b\\"\\n"`
            timeadd("2024-01-01T00:00:00Z", "90m")     | `"2024-01-01T01:30:00Z"`
            try(jsondecode("{"), "fallback")           | `"fallback"`
            can(jsondecode("{"))                       | false
            """)
    void functions(String expression, String expectedJson) throws Exception {
        assertThat(json(expr(expression))).isEqualTo(expectedJson);
    }

    @Test
    void uuidv4AndTimestampHaveTheirShapes() throws Exception {
        assertThat((String) expr("uuidv4()")).matches("[0-9a-f]{8}-[0-9a-f]{4}-4[0-9a-f]{3}-[89ab][0-9a-f]{3}-[0-9a-f]{12}");
        assertThat((String) expr("timestamp()")).matches("\\d{4}-\\d\\d-\\d\\dT\\d\\d:\\d\\d:\\d\\dZ");
    }

    @Test
    void runTimeReferencesStayInterpolationsAsNomadKeepsThem() throws Exception {
        assertThat(expr("attr.kernel.name")).isEqualTo("${attr.kernel.name}");
        assertThat(expr("node.unique.name")).isEqualTo("${node.unique.name}");
        assertThat(expr("meta.rack")).isEqualTo("${meta.rack}");
        assertThat(expr("NOMAD_ALLOC_DIR")).isEqualTo("${NOMAD_ALLOC_DIR}");
        assertThat(expr("\"${NOMAD_TASK_DIR}/run.sh\"")).isEqualTo("${NOMAD_TASK_DIR}/run.sh");
        assertThat(expr("\"${ attr.unique.hostname }\"")).isEqualTo("${ attr.unique.hostname }");
        assertThat(expr("\"${meta[\"x\"]}\"")).isEqualTo("${meta[\"x\"]}");
        assertThat(expr("\"${env[\"HOME\"]}\"")).isEqualTo("${env[\"HOME\"]}");
        assertThat(expr("false || attr.x == \"${attr.x}\"")).isEqualTo(true);
        // a shell's ${...} is no HCL expression and stays as written
        assertThat(expr("\"echo ${HOME:-/root}\"")).isEqualTo("echo ${HOME:-/root}");
    }

    @Test
    void escapesStayForTheRunTimeInterpolation() throws Exception {
        assertThat(expr("\"$${NOMAD_ALLOC_DIR} and %%{ if }\"")).isEqualTo("$${NOMAD_ALLOC_DIR} and %%{ if }");
    }

    @Test
    void templateDirectivesAndStripMarkers() throws Exception {
        String text = """
                locals {
                  names = ["a", "b"]
                  on    = true
                }
                x = <<-EOT
                  %{ for n in local.names ~}
                  name=${n}
                  %{ endfor ~}
                  %{ if local.on }on%{ else }off%{ endif }
                  EOT
                """;
        assertThat(x(text)).isEqualTo("name=a\nname=b\non\n");
    }

    @Test
    void heredocsPlainAndIndented() throws Exception {
        assertThat(x("x = <<EOF\n  keep ${1 + 1}\nEOF\n")).isEqualTo("  keep 2\n");
        assertThat(x("x = <<-EOF\n    a\n      b\n    EOF\n")).isEqualTo("a\n  b\n");
    }

    @Test
    void variablesWithTypesDefaultsAndAllThreeSources() throws Exception {
        String text = """
                variable "n" {
                  type    = number
                  default = 1
                }
                variable "names" {
                  type    = list(string)
                  default = ["a"]
                }
                variable "tags" {
                  type = map(string)
                }
                variable "o" {
                  type    = object({ port = number, name = string })
                  default = { port = "80", name = "web" }
                }
                variable "from_env" {
                  default = "dflt"
                }
                x = [var.n, var.names, var.tags, var.o, var.from_env]
                """;
        HclInputs inputs = new HclInputs(Map.of("n", "3"),
                List.of(new HclInputs.Source("vars.hcl", "tags = { env = \"prod\" }\nnames = [\"b\", \"c\"]\n")),
                Map.of("from_env", "env-value", "n", "2"), Optional.empty());
        HclEvaluation.Result r = evaluate(text, inputs);
        assertThat(r.problems()).isEmpty();
        assertThat(json(HclValues.of(r.body().attributes().get(0).value())))
                .isEqualTo("[3,[\"b\",\"c\"],{\"env\":\"prod\"},{\"name\":\"web\",\"port\":80},\"env-value\"]");
    }

    @Test
    void listFlagValuesAreParsedAsHcl() throws Exception {
        HclInputs inputs = new HclInputs(Map.of("l", "[\"x\", \"y\"]"), List.of(), Map.of(), Optional.empty());
        HclEvaluation.Result r = evaluate("variable \"l\" {\n  type = list(string)\n}\nx = var.l\n", inputs);
        assertThat(r.problems()).isEmpty();
        assertThat(HclValues.of(r.body().attributes().get(0).value())).isEqualTo(List.of("x", "y"));
    }

    @Test
    void localsMayReferToEachOtherInAnyOrder() throws Exception {
        assertThat(x("locals {\n  b = local.a + 1\n  a = 1\n}\nx = local.b\n")).isEqualTo(2L);
    }

    @Test
    void dynamicBlocksExpandWithTheirIterator() throws Exception {
        HclEvaluation.Result r = evaluate("""
                locals {
                  ports = { http = 80, admin = 9000 }
                }
                group "g" {
                  dynamic "port" {
                    for_each = local.ports
                    iterator = p
                    labels   = [p.key]
                    content {
                      static = p.value
                    }
                  }
                }
                """, HclInputs.NONE);
        assertThat(r.problems()).isEmpty();
        List<HclBlock> ports = r.body().blocks().get(0).body().blocks();
        assertThat(ports).extracting(HclBlock::labels).containsExactly(List.of("admin"), List.of("http"));
        assertThat(ports.get(1).body().attributes().get(0).value()).isEqualTo(new HclValue.Num(80L, 10));
    }

    @Test
    void objectsBuiltFromExpressionsKeepTheirEntriesLines() throws Exception {
        HclEvaluation.Result r = evaluate("x = {\n  a = 1 + 1\n  b = \"${2}\"\n}\n", HclInputs.NONE);
        HclValue.ObjectValue o = (HclValue.ObjectValue) r.body().attributes().get(0).value();
        assertThat(o.entries()).extracting(HclAttribute::line).containsExactly(2, 3);
    }
}
