package io.drover.core.spec;

import java.time.Duration;

/**
 * One {@code template} block of a task, validated by the job parser (an inline {@code data} template is parsed
 * there, so a syntax error or a Consul/Vault function is refused before anything runs).
 *
 * @param data the inline template; null when {@code source} is set
 * @param source a file inside the allocation, relative to the task directory; null when {@code data} is set
 * @param destination relative to the task directory
 * @param perms octal file mode of the rendered file (default 0644)
 * @param changeMode noop, restart, signal or script: what a re-render does (engine TemplateWatch, docs/jobs.md)
 * @param changeSignal the signal of change_mode "signal"
 * @param splay the largest random delay before a re-render's change_mode applies
 * @param waitMin {@code wait { min }}: a changed input re-renders once it has been quiet this long (zero: at once)
 * @param waitMax {@code wait { max }}: ... but no later than this after the first change (zero: no bound)
 * @param uid the owner the rendered file is given (chown, no link followed); null: the agent's user
 * @param gid the group the rendered file is given; null: the agent's group
 * @param once rendered before the first run and never watched again (consul-template's once mode)
 * @param changeScript what change_mode "script" runs inside the task; null for the other modes
 */
public record Template(String data, String source, String destination, boolean env, int perms, String changeMode,
        String changeSignal, Duration splay, String leftDelimiter, String rightDelimiter, boolean errorOnMissingKey,
        Duration waitMin, Duration waitMax, Integer uid, Integer gid, boolean once, ChangeScript changeScript) {
    public Template {
        waitMin = waitMin == null ? Duration.ZERO : waitMin;
        waitMax = waitMax == null ? Duration.ZERO : waitMax;
    }
}
