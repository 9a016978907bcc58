package io.drover.core.spec.parse.hcl;

import java.util.Map;
import java.util.Optional;

/**
 * The names an expression can use: {@code var} and {@code local} at the root, and the names a for-expression,
 * a template's {@code %{ for }} or a dynamic block binds, each in a child scope. A name no scope knows is a
 * run-time reference ({@code attr.kernel.name}, {@code NOMAD_ALLOC_DIR}) and stays <code>${...}</code> text, as
 * Nomad keeps it. Immutable except for the root's lazily evaluated locals.
 */
interface HclScope {
    /** @return the value of a root name, empty when this scope and its parents do not know it */
    Optional<Object> lookup(String name) throws HclSyntaxException;

    /** The value of {@code local.<name>} (evaluated on first use), or a problem at line:col. */
    Object local(String name, int line, int col) throws HclSyntaxException;

    /** The value of {@code var.<name>}, or a problem at line:col. */
    Object variable(String name, int line, int col) throws HclSyntaxException;

    /** A child scope binding {@code names}. */
    default HclScope with(Map<String, Object> names) {
        HclScope parent = this;
        return new HclScope() {
            @Override
            public Optional<Object> lookup(String name) throws HclSyntaxException {
                return names.containsKey(name) ? Optional.ofNullable(names.get(name)).or(() -> Optional.of(NULL))
                        : parent.lookup(name);
            }

            @Override
            public Object local(String name, int line, int col) throws HclSyntaxException {
                return parent.local(name, line, col);
            }

            @Override
            public Object variable(String name, int line, int col) throws HclSyntaxException {
                return parent.variable(name, line, col);
            }
        };
    }

    /** Stands for a bound name whose value is null (an Optional cannot hold null). */
    Object NULL = new Object() {
        @Override
        public String toString() {
            return "null";
        }
    };
}
