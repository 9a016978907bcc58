package io.drover.core.spec.parse.hcl;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.List;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.CsvSource;

class HclParserTest {

    private static HclValue attr(HclBody body, String name) {
        return body.attributes().stream().filter(a -> a.name().equals(name)).findFirst().orElseThrow().value();
    }

    @Test
    void commentsOfAllThreeKindsAreIgnored() throws Exception {
        HclBody body = HclParser.parse("""
                # hash
                a = 1 // slashes
                /* block
                   comment */
                b = "x" # trailing
                """);
        assertThat(body.attributes()).extracting(HclAttribute::name).containsExactly("a", "b");
        assertThat(body.attributes().get(1).line()).isEqualTo(5);
    }

    @Test
    void interpolationIsKeptByteForByte() throws Exception {
        HclBody body = HclParser.parse("""
                args = ["foo", "${NOMAD_TASK_NAME}", "${env["X"]}-%{ if true }y%{ endif }", "$${LITERAL}"]
                """);
        HclValue.ListValue list = (HclValue.ListValue) attr(body, "args");
        assertThat(list.items()).extracting(v -> ((HclValue.Str) v).value())
                .containsExactly("foo", "${NOMAD_TASK_NAME}", "${env[\"X\"]}-%{ if true }y%{ endif }", "$${LITERAL}");
    }

    @Test
    void escapesAreResolvedOutsideInterpolations() throws Exception {
        HclBody body = HclParser.parse("s = \"a\\tb\\n\\\"q\\\" \\\\ \\u00e9 ${x(\"}\\\"\")}\"\n");
        assertThat(((HclValue.Str) attr(body, "s")).value()).isEqualTo("a\tb\n\"q\" \\ é ${x(\"}\\\"\")}");
    }

    @Test
    void heredocsKeepTextAndIndentedOnesStripCommonIndent() throws Exception {
        HclBody body = HclParser.parse("""
                plain = <<EOF
                  line ${X}
                 two
                EOF
                indented = <<-EOT
                    first
                      second
                    EOT
                after = 1
                """);
        assertThat(((HclValue.Str) attr(body, "plain")).value()).isEqualTo("  line ${X}\n two\n");
        assertThat(((HclValue.Str) attr(body, "indented")).value()).isEqualTo("first\n  second\n");
        assertThat(body.attributes().get(2).line()).isEqualTo(9);
    }

    @Test
    void numbersBoolsNullListsAndObjects() throws Exception {
        HclBody body = HclParser.parse("""
                i = 42
                n = -7
                d = 1.5
                e = 2e3
                t = true
                z = null
                l = [
                  1,
                  "two",
                ]
                o = { a = 1, "b c" = "x"
                      d: [true] }
                """);
        assertThat(((HclValue.Num) attr(body, "i")).value()).isEqualTo(42L);
        assertThat(((HclValue.Num) attr(body, "n")).value()).isEqualTo(-7L);
        assertThat(((HclValue.Num) attr(body, "d")).value()).isEqualTo(1.5);
        assertThat(((HclValue.Num) attr(body, "e")).value()).isEqualTo(2000.0);
        assertThat(attr(body, "t")).isEqualTo(new HclValue.Bool(true, 5));
        assertThat(attr(body, "z")).isInstanceOf(HclValue.Null.class);
        assertThat(((HclValue.ListValue) attr(body, "l")).items()).hasSize(2);
        HclValue.ObjectValue o = (HclValue.ObjectValue) attr(body, "o");
        assertThat(o.entries()).extracting(HclAttribute::name).containsExactly("a", "b c", "d");
        assertThat(o.entries().get(2).line()).isEqualTo(12);
    }

    @Test
    void blocksWithLabelsNestingAndSingleLineForms() throws Exception {
        HclBody body = HclParser.parse("""
                job "example" {
                  group web {
                    ports { http = 4747 }
                    empty {}
                  }
                  group "web" {
                  }
                }
                """);
        HclBlock job = body.blocks().get(0);
        assertThat(job.labels()).containsExactly("example");
        assertThat(job.body().blocks()).extracting(HclBlock::line).containsExactly(2, 6);
        HclBlock web = job.body().blocks().get(0);
        assertThat(web.labels()).containsExactly("web");
        HclBlock ports = web.body().blocks().get(0);
        assertThat(ports.body().attributes()).containsExactly(new HclAttribute("http", new HclValue.Num(4747L, 3), 3));
        assertThat(web.body().blocks().get(1).body().items()).isEmpty();
    }

    @Test
    void crlfLineEndingsAndNoFinalNewline() throws Exception {
        HclBody body = HclParser.parse("a = 1\r\nb {\r\n  c = \"d\"\r\n}");
        assertThat(body.items()).hasSize(2);
        assertThat(body.blocks().get(0).body().attributes().get(0).line()).isEqualTo(3);
    }

    @ParameterizedTest(name = "{0}")
    @CsvSource(delimiter = '|', textBlock = """
            'a = 1\\nb = \"x'                | 2 | unterminated string
            'a = 1\\na = 2'                  | 2 | duplicate attribute a (first set at line 1)
            'a {\\n b = 1\\n'                | 3 | expected "}" closing block a of line 1
            'a = 1 b = 2'                    | 1 | expected a newline after attribute a
            'x = foo'                        | 1 | expected a value, found identifier foo
            'x = 5s'                         | 1 | quote it: "5s"
            'a { b = 1, c = 2 }'             | 1 | expected "}"
            'l = [1\\n 2]'                   | 2 | expected "," or "]"
            'x = \"a\\q\"'                   | 1 | invalid escape \\q
            '\\n\\n/* open'                  | 3 | unterminated /* comment
            'h = <<EOF\\nbody\\n'            | 1 | has no closing EOF line
            'o = { a = 1, a = 2 }'           | 1 | duplicate key a
            'a = 1\\n\\n @'                  | 3 | unexpected character '@'
            'x = \"${ a { b }'              | 1 | unterminated ${ ... }
            'b \"l\" = 1'                    | 1 | expected "{", found "="
            'm {\\n \"version\" = \"2\"\\n}'    | 2 | Invalid argument name: argument names must not be quoted, found string "version"
            'd = [\"dc1\"],\\nt = 1'           | 1 | Unexpected comma after argument: arguments are separated by newlines, not commas (after attribute d)
            'r { n { p = 1 } }'              | 1 | Argument definition required: expected "=" (a single-line block holds one attribute), found "{"; a nested block n goes on a line of its own within r
            'j { d = 1\\n t = 2\\n}'           | 1 | Invalid single-argument block definition: expected "}" closing block j of line 1, found newline (an attribute on the block's opening line makes it a single-line block)
            'v { a = 1  b = 2 }'             | 1 | Invalid single-argument block definition: expected "}" closing block v of line 1, found identifier b (a single-line block holds one attribute)
            """)
    void errorsNameTheLineAndWhatWasExpected(String text, int line, String fragment) {
        String source = text.replace("\\n", "\n").replace("\\\\", "\\");
        assertThatThrownBy(() -> HclParser.parse(source))
                .isInstanceOfSatisfying(HclSyntaxException.class, e -> {
                    assertThat(e.line()).isEqualTo(line);
                    assertThat(e.getMessage()).contains(fragment);
                });
    }

    @Test
    void deepNestingIsRefusedNotAStackOverflow() {
        String deep = "a = " + "[".repeat(100_000);
        assertThatThrownBy(() -> HclParser.parse(deep)).isInstanceOf(HclSyntaxException.class)
                .hasMessageContaining("nested more than");
    }

    @Test
    void repeatedBlocksStaySeparate() throws Exception {
        HclBody body = HclParser.parse("task \"t\" {\n}\ntask \"t\" {\n}\n");
        assertThat(body.blocks()).hasSize(2);
        assertThat(body.blocks()).extracting(HclBlock::labels).containsExactly(List.of("t"), List.of("t"));
    }
}
