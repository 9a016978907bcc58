package io.drover.core.template;

import java.util.List;

/** The parse tree of a Go text/template. Immutable records. */
sealed interface Node {
    record Text(String text) implements Node {}

    /** {@code {{pipeline}}}: prints the value unless the pipeline declares or assigns variables. */
    record Action(int line, Pipeline pipe) implements Node {}

    record If(int line, Pipeline cond, List<Node> then, List<Node> otherwise) implements Node {}

    record Range(int line, Pipeline over, List<Node> body, List<Node> otherwise) implements Node {}

    record With(int line, Pipeline value, List<Node> body, List<Node> otherwise) implements Node {}

    /** {@code {{template "name" pipeline}}}. */
    record Call(int line, String name, Pipeline arg) implements Node {}

    /** {@code $a, $b := cmd | cmd}; {@code assign} for {@code =}. */
    record Pipeline(int line, List<String> vars, boolean assign, List<Command> cmds) {}

    record Command(List<Arg> args) {}

    sealed interface Arg {}

    /** {@code .a.b} (empty path: dot itself). */
    record Field(List<String> path) implements Arg {}

    /** {@code $x.a.b}. */
    record Var(String name, List<String> path) implements Arg {}

    record Func(String name) implements Arg {}

    record Literal(Object value) implements Arg {}

    /** {@code (pipeline).a.b}. */
    record Paren(Pipeline pipe, List<String> path) implements Arg {}
}
