package io.drover.cli;

import java.util.function.Consumer;
import java.util.function.Supplier;
import picocli.CommandLine;
import picocli.CommandLine.Model.CommandSpec;
import picocli.CommandLine.Model.IGetter;
import picocli.CommandLine.Model.ISetter;
import picocli.CommandLine.Model.OptionSpec;
import picocli.CommandLine.Model.PositionalParamSpec;

/**
 * Builds picocli models in code (its programmatic API) for the commands users run most (docs/performance.md,
 * "Client commands"): no annotation is read, so no annotation proxy class is generated and no command class is
 * reflected over at start-up (~50 ms of CPU of each call). Each such command keeps its annotations for the full
 * model (a usage error, {@code drover help}, {@link CdsTraining}); {@code ProgrammaticModelTest} compares the two
 * forms' usage texts and parse results, so they cannot drift apart. Not thread-safe: built and used on one thread.
 */
public final class Specs {
    /** picocli's {@code mixinStandardHelpOptions} descriptions (its AutoHelpMixin, which is annotated). */
    static final String HELP = "Show this help message and exit.";
    static final String VERSION = "Print version information and exit.";

    private Specs() {}

    /** A command's model without inspection of {@code command}; the caller adds its arguments, then {@link #help}. */
    public static CommandSpec command(Object command, String name, boolean sortOptions, String... description) {
        CommandSpec spec = CommandSpec.wrapWithoutInspection(command).name(name);
        spec.usageMessage().sortOptions(sortOptions).description(description);
        return spec;
    }

    /** {@code -h/--help} and {@code -V/--version}, added last as {@code mixinStandardHelpOptions = true} does. */
    public static CommandSpec help(CommandSpec spec) {
        spec.addOption(OptionSpec.builder("-h", "--help").usageHelp(true).type(boolean.class)
                .initialValue(false).hasInitialValue(true)
                .descriptionKey("mixinStandardHelpOptions.help").description(HELP).build());
        spec.addOption(OptionSpec.builder("-V", "--version").versionHelp(true).type(boolean.class)
                .initialValue(false).hasInitialValue(true)
                .descriptionKey("mixinStandardHelpOptions.version").description(VERSION).build());
        return spec;
    }

    /** A boolean flag bound to a field by its getter and setter. */
    public static OptionSpec flag(Supplier<Boolean> get, Consumer<Boolean> set, String description,
            String... names) {
        return option(boolean.class, null, get, set, description, names);
    }

    /** An option of one value of {@code type} ({@code label} its parameter label, null for a flag). */
    public static <T> OptionSpec option(Class<T> type, String label, Supplier<T> get, Consumer<T> set,
            String description, String... names) {
        Binding<T> b = new Binding<>(type, get, set);
        OptionSpec.Builder o = OptionSpec.builder(names).type(type).description(description).getter(b).setter(b)
                .initialValue(get.get()).hasInitialValue(true);
        if (label != null) {
            o.paramLabel(label);
        }
        return o.build();
    }

    /** A String positional parameter at {@code index}; {@code arity} null for picocli's default (one, required). */
    public static PositionalParamSpec positional(String index, String arity, String label, Supplier<String> get,
            Consumer<String> set, String description) {
        Binding<String> b = new Binding<>(String.class, get, set);
        PositionalParamSpec.Builder p = PositionalParamSpec.builder().index(index).paramLabel(label)
                .type(String.class).description(description).getter(b).setter(b).initialValue(get.get())
                .hasInitialValue(true);
        if (arity != null) {
            p.arity(arity);
        }
        // as picocli does for an annotated parameter: required when its arity needs a value
        p.required(arity == null || CommandLine.Range.valueOf(arity).min() > 0);
        return p.build();
    }

    /** A field seen through two lambdas: picocli's IGetter and ISetter have generic methods, no lambda form. */
    private static final class Binding<V> implements IGetter, ISetter {
        private final Class<V> type;
        private final Supplier<V> get;
        private final Consumer<V> set;

        Binding(Class<V> type, Supplier<V> get, Consumer<V> set) {
            this.type = type;
            this.get = get;
            this.set = set;
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T get() {
            return (T) get.get();
        }

        @Override
        @SuppressWarnings("unchecked")
        public <T> T set(T value) {
            T old = get();
            // picocli hands a boolean option's Boolean; a primitive field takes no null (never set to null)
            set.accept(type == boolean.class && value == null ? (V) Boolean.FALSE : (V) value);
            return old;
        }
    }
}
