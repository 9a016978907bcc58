package io.drover.core.spec.parse;

import io.drover.core.artifact.ClientPath;
import io.drover.core.spec.ChangeScript;
import io.drover.core.spec.Template;
import io.drover.core.spec.parse.tree.Field;
import io.drover.core.spec.parse.tree.MapReader;
import io.drover.core.spec.parse.tree.Node;
import io.drover.core.spec.parse.tree.Problems;
import io.drover.core.spec.parse.tree.TreeProblem;
import io.drover.core.template.GoTemplate;
import io.drover.core.template.TemplateException;
import io.drover.driver.api.Signals;
import java.time.Duration;
import java.util.List;

/**
 * Maps a task's {@code template} block. An inline {@code data} template is parsed here with Drover's Go template
 * engine, so a syntax error, an unknown function or a function that needs Consul, Vault or Nomad servers is a
 * problem of the job file (one line, the block's key path), and nothing runs. Pure.
 */
final class TemplateMapper {
    private static final List<String> KEYS = List.of("data", "source", "destination", "env", "perms",
            "change_mode", "change_signal", "splay", "left_delimiter", "right_delimiter", "error_on_missing_key",
            "wait", "uid", "gid", "once", "change_script");
    private static final List<String> WAIT_KEYS = List.of("min", "max");
    private static final List<String> SCRIPT_KEYS = List.of("command", "args", "timeout", "fail_on_error");

    private TemplateMapper() {}

    static Template template(Field field, MapReader task, String taskName, Problems p) {
        int before = p.size();
        String path = MapReader.join(task.path(), field.name());
        if (!(field.value() instanceof Node.Mapping m) || !m.labels().isEmpty()) {
            p.add(new TreeProblem(field.line(), path, "must be a block without label: template { ... }"));
            return null;
        }
        MapReader r = MapReader.open(m, path, task.vocabulary(), KEYS, List.of(), p);
        String data = p.read(() -> r.string("data", null), null);
        String source = p.read(() -> r.string("source", null), null);
        if ((data == null) == (source == null) && p.size() == before) {
            p.add(new TreeProblem(field.line(), path, "needs exactly one of data (inline) or source (a file)"));
        }
        String destination = p.read(() -> r.string("destination", null), null);
        if (destination == null && !r.has("destination")) {
            p.add(r.problem("destination", "is required (e.g. local/app.conf)"));
        } else if (destination != null) {
            ClientPath.parseProblem(destination, ClientPath.Kind.DESTINATION, "template destination", taskName)
                    .ifPresent(msg -> p.add(r.problem("destination", msg)));
        }
        if (source != null) {
            ClientPath.parseProblem(source, ClientPath.Kind.SOURCE, "template source", taskName)
                    .ifPresent(msg -> p.add(r.problem("source", msg)));
        }
        boolean env = p.read(() -> r.bool("env", false), false);
        String permsText = p.read(() -> r.string("perms", "0644"), "0644");
        int perms = 0644;
        if (!permsText.matches("0?[0-7]{3}")) {
            p.add(r.problem("perms", "must be an octal mode such as \"0644\", found \"" + permsText + "\""));
        } else {
            perms = Integer.parseInt(permsText, 8);
        }
        String changeMode = p.read(() -> r.string("change_mode", "restart"), "restart");
        if (!List.of("noop", "restart", "signal", "script").contains(changeMode)) {
            p.add(r.problem("change_mode", "must be noop, restart, signal or script, found \"" + changeMode + "\""));
        }
        ChangeScript script = changeScript(r, changeMode, field.line(), path, p);
        String signal = p.read(() -> r.string("change_signal", null), null);
        String changeSignal = null;
        if (signal != null) {
            changeSignal = Signals.canonical(signal).orElse(null);
            if (changeSignal == null) {
                p.add(r.problem("change_signal", "unknown signal \"" + signal + "\""));
            }
        } else if (changeMode.equals("signal")) {
            p.add(r.problem("change_signal", "is required with change_mode = \"signal\""));
        }
        Duration splay = p.read(() -> r.duration("splay", Duration.ofSeconds(5), false), Duration.ofSeconds(5));
        String left = p.read(() -> r.string("left_delimiter", "{{"), "{{");
        String right = p.read(() -> r.string("right_delimiter", "}}"), "}}");
        if (left.isEmpty() || right.isEmpty()) {
            p.add(r.problem(left.isEmpty() ? "left_delimiter" : "right_delimiter", "must not be empty"));
        }
        boolean missing = p.read(() -> r.bool("error_on_missing_key", false), false);
        Duration waitMin = Duration.ZERO;
        Duration waitMax = Duration.ZERO;
        MapReader w = r.child("wait", WAIT_KEYS, List.of(), p);
        if (w != null) {
            waitMin = p.read(() -> w.duration("min", Duration.ZERO, false), Duration.ZERO);
            waitMax = p.read(() -> w.duration("max", Duration.ZERO, false), Duration.ZERO);
            if (!waitMax.isZero() && waitMax.compareTo(waitMin) < 0) {
                p.add(w.problem("max", "must not be less than min"));
            }
        }
        if (data != null && !left.isEmpty() && !right.isEmpty()) {
            try {
                GoTemplate.parse("data", data, left, right);
            } catch (TemplateException e) {
                p.add(new TreeProblem(r.line("data"), r.keyPath("data"), "template " + e.getMessage()));
            }
        }
        Integer uid = owner(r, "uid", p);
        Integer gid = owner(r, "gid", p);
        boolean once = p.read(() -> r.bool("once", false), false);
        if (p.size() != before) {
            return null;
        }
        return new Template(data, source, destination, env, perms, changeMode, changeSignal, splay, left, right,
                missing, waitMin, waitMax, uid, gid, once, script);
    }

    /**
     * {@code uid}/{@code gid}: the rendered file's owner, a whole number; a negative one is unset, as in Nomad
     * (consul-template leaves the owner alone).
     */
    private static Integer owner(MapReader r, String key, Problems p) {
        if (!r.has(key)) {
            return null;
        }
        long id = p.read(() -> r.integer(key, -1, Integer.MIN_VALUE, Integer.MAX_VALUE), -1L);
        return id < 0 ? null : (int) id;
    }

    /**
     * {@code change_script { command, args, timeout, fail_on_error }}: required with {@code change_mode =
     * "script"} (a command that is not empty), refused with another mode. Nomad's defaults: 5s, false.
     */
    private static ChangeScript changeScript(MapReader r, String changeMode, int line, String path, Problems p) {
        MapReader c = r.child("change_script", SCRIPT_KEYS, List.of(), p);
        boolean script = changeMode.equals("script");
        if (c == null) {
            if (script && !r.has("change_script")) {
                p.add(new TreeProblem(line, path, "change_mode = \"script\" needs a change_script { command = "
                        + "\"...\" } block"));
            }
            return null;
        }
        if (!script) {
            p.add(r.problem("change_script", "is only used with change_mode = \"script\" (found \"" + changeMode
                    + "\")"));
            return null;
        }
        String command = p.read(() -> c.string("command", null), null);
        List<String> args = p.read(() -> c.strings("args"), List.of());
        Duration timeout = p.read(() -> c.duration("timeout", ChangeScript.DEFAULT_TIMEOUT, true),
                ChangeScript.DEFAULT_TIMEOUT);
        boolean failOnError = p.read(() -> c.bool("fail_on_error", false), false);
        if (command == null || command.isBlank()) {
            if (command != null || !c.has("command")) {
                p.add(c.problem("command", "is required: the script to run inside the task"));
            }
            return null;
        }
        return new ChangeScript(command, args == null ? List.of() : args, timeout, failOnError);
    }
}
