package io.drover.core.template;

import java.time.Instant;
import java.util.List;
import java.util.Map;
import java.util.function.Function;

/**
 * A parsed Go text/template with consul-template's functions that need no Consul, Vault or Nomad server, and its
 * Nomad service functions, which read the {@link Reader}'s registry (the list is in docs/jobs.md). Parse once ({@link #parse}: every syntax problem, an unknown function, or a Consul/Vault
 * function is a {@link TemplateException} naming line and function), render any number of times. Immutable and
 * thread-safe; {@link #render} is CPU-bound plus what {@link Reader#file} reads (call it on a pool thread).
 */
public final class GoTemplate {
    /** What a render may read: the task's environment and files (the caller keeps them inside the allocation). */
    public interface Reader {
        String env(String name);

        /** @throws TemplateException one line when the file cannot or may not be read */
        String file(String path) throws TemplateException;

        /**
         * Nomad's service registry: for {@code nomadService}, the instances (each a map of {@code ID}, {@code Name},
         * {@code Node}, {@code Address}, {@code Port}, {@code Datacenter}, {@code Tags}, {@code JobID},
         * {@code AllocID}); for {@code nomadServices}, the services (each {@code Name}, {@code Namespace},
         * {@code Tags}), as consul-template gives them; for Nomad variables ({@code nomadVar...}) a {@link VarItems},
         * a boolean or a list of variable metadata. By default there is no registry.
         */
        default Object nomad(NomadQuery query) throws TemplateException {
            throw new TemplateException("function \"" + Funcs.name(query)
                    + "\" has no Nomad registry to read here");
        }
    }

    private final String name;
    private final List<Node> body;
    private final Map<String, List<Node>> defines;

    private GoTemplate(String name, List<Node> body, Map<String, List<Node>> defines) {
        this.name = name;
        this.body = body;
        this.defines = defines;
    }

    public static GoTemplate parse(String name, String text, String left, String right) throws TemplateException {
        Parser p = new Parser(name, text, left, right, Funcs.NAMES);
        List<Node> body = p.parse();
        return new GoTemplate(name, body, Map.copyOf(p.defines()));
    }

    public static GoTemplate parse(String name, String text) throws TemplateException {
        return parse(name, text, "{{", "}}");
    }

    /**
     * @param missingKeyError consul-template's {@code error_on_missing_key}: a missing map key fails the render
     *     instead of printing {@code <no value>}
     */
    public String render(Reader reader, Instant now, boolean missingKeyError) throws TemplateException {
        Funcs.Env env = new Funcs.Env() {
            @Override
            public String env(String n) {
                return reader.env(n);
            }

            @Override
            public String file(String path) throws TemplateException {
                return reader.file(path);
            }

            @Override
            public Instant now() {
                return now;
            }

            @Override
            public Object nomad(NomadQuery query) throws TemplateException {
                return reader.nomad(query);
            }
        };
        return new Evaluator(name, defines, env, missingKeyError).run(body, Map.of());
    }

    /** A reader over a map, for tests and simple callers; files are refused. */
    public static Reader envOnly(Function<String, String> env) {
        return new Reader() {
            @Override
            public String env(String n) {
                return env.apply(n);
            }

            @Override
            public String file(String path) throws TemplateException {
                throw new TemplateException("file \"" + path + "\" cannot be read here");
            }
        };
    }
}
