package io.drover.cli;

import java.lang.reflect.Constructor;
import picocli.CommandLine;
import picocli.CommandLine.IFactory;

/** Creates picocli's command objects, handing the {@link CliContext} to those whose constructor takes one. */
final class ContextFactory implements IFactory {
    private final CliContext ctx;
    private final IFactory fallback = CommandLine.defaultFactory();

    ContextFactory(CliContext ctx) {
        this.ctx = ctx;
    }

    @Override
    public <K> K create(Class<K> cls) throws Exception {
        for (Constructor<?> c : cls.getDeclaredConstructors()) {
            if (c.getParameterCount() == 1 && c.getParameterTypes()[0] == CliContext.class) {
                c.setAccessible(true);
                return cls.cast(c.newInstance(ctx));
            }
        }
        return fallback.create(cls);
    }
}
