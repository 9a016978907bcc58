package io.drover.core.template;

import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * A template's read of Nomad's service registry, as consul-template spells it: {@code nomadService
 * "[tag.]name[?ns=namespace][@region]"} (optionally with {@code count key} before it: a stable choice of
 * {@code count} instances, Nomad's {@code choose}), or {@code nomadServices "[?ns=namespace|*][@region]"}.
 * Also a read of Nomad variables: {@code nomadVar "path[@namespace]"}, {@code nomadVarExists "path"}, {@code
 * nomadVarList "prefix[@namespace]"} and {@code nomadVarListSafe} ({@link Kind}). Immutable value (a watch compares
 * what it answered).
 *
 * @param kind what is read
 * @param name the service's name, the variable's path or the list's prefix; null for a list of services
 * @param tag only instances with this tag; null: any
 * @param namespace null: the task's; {@code "*"}: every namespace (lists only)
 * @param region null: this node's
 * @param count how many instances to choose, 0: all
 * @param key the choice's key (instances are ordered by a hash of key and ID)
 */
public record NomadQuery(Kind kind, String name, String tag, String namespace, String region, int count,
        String key) {
    /** What a query reads. */
    public enum Kind { SERVICE, SERVICES, VAR, VAR_EXISTS, VAR_LIST, VAR_LIST_SAFE }

    private static final Pattern VAR = Pattern.compile("(?<name>[^@]*)(@(?<namespace>[\\w\\-*]+))?"
            + "(\\.(?<region>[\\w.\\-]+))?");

    /** Whether it lists services ({@code nomadServices}). */
    public boolean list() {
        return kind == Kind.SERVICES;
    }

    /** consul-template's variable argument: {@code path[@namespace[.region]]}. */
    static NomadQuery variable(Kind kind, String s) throws TemplateException {
        Matcher m = VAR.matcher(s);
        if (!m.matches()) {
            throw new TemplateException("invalid variable path \"" + s + "\" (path@namespace, namespace optional)");
        }
        return new NomadQuery(kind, m.group("name"), null, m.group("namespace"), m.group("region"), 0, null);
    }

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
        return new NomadQuery(Kind.SERVICE, m.group("name"), m.group("tag"), m.group("namespace"), m.group("region"), count,
                key);
    }

    /** consul-template's {@code nomadServices} argument ({@code ""}: the task's namespace). */
    static NomadQuery services(String s) throws TemplateException {
        Matcher m = SERVICES.matcher(s);
        if (!m.matches()) {
            throw new TemplateException("nomadServices: invalid format: \"" + s + "\" (?ns=namespace@region, optional)");
        }
        return new NomadQuery(Kind.SERVICES, null, null, m.group("namespace"), m.group("region"), 0, null);
    }
}
