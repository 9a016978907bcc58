package io.drover.core.template;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template's read of Nomad's service registry, as consul-template spells it: {@code nomadService
 * "[tag.]name[?ns=namespace][@region]"} (optionally with {@code count key} before it: a stable choice of
 * {@code count} instances, Nomad's {@code choose}), or {@code nomadServices "[?ns=namespace|*][@region]"}.
 * Immutable value (a watch compares what it answered).
 *
 * @param list whether it lists services ({@code nomadServices}) rather than one service's instances
 * @param name the service's name; null for a list
 * @param tag only instances with this tag; null: any
 * @param namespace null: the task's; {@code "*"}: every namespace (lists only)
 * @param region null: this node's
 * @param count how many instances to choose, 0: all
 * @param key the choice's key (instances are ordered by a hash of key and ID)
 */
public record NomadQuery(boolean list, String name, String tag, String namespace, String region, int count,
        String key) {
    private static final String TAG = "((?<tag>[\\w=:.\\-]+)\\.)?";
    private static final String NAME = "(?<name>[\\w\\-]+)";
    private static final String REGION = "(@(?<region>[\\w.\\-]+))?";
    private static final Pattern SERVICE = Pattern.compile(TAG + NAME + "(\\?ns=(?<namespace>[\\w\\-]+))?" + REGION);
    private static final Pattern SERVICES = Pattern.compile("(\\?ns=(?<namespace>[\\w\\-]+|\\*))?" + REGION);

    /** consul-template's {@code nomadService} argument. */
    static NomadQuery service(String s, int count, String key) throws TemplateException {
        Matcher m = SERVICE.matcher(s);
        if (!m.matches()) {
            throw new TemplateException("nomadService: invalid format: \"" + s
                    + "\" (tag.name?ns=namespace@region, all but the name optional)");
        }
        return new NomadQuery(false, m.group("name"), m.group("tag"), m.group("namespace"), m.group("region"), count,
                key);
    }

    /** consul-template's {@code nomadServices} argument ({@code ""}: the task's namespace). */
    static NomadQuery services(String s) throws TemplateException {
        Matcher m = SERVICES.matcher(s);
        if (!m.matches()) {
            throw new TemplateException("nomadServices: invalid format: \"" + s + "\" (?ns=namespace@region, optional)");
        }
        return new NomadQuery(true, null, null, m.group("namespace"), m.group("region"), 0, null);
    }
}
