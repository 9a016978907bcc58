package io.drover.testkit;

import java.lang.reflect.AnnotatedElement;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.extension.AfterEachCallback;
import org.junit.jupiter.api.extension.ExtensionContext;
import org.junit.jupiter.api.extension.ParameterContext;
import org.junit.jupiter.api.extension.ParameterResolver;
import org.junit.platform.commons.support.AnnotationSupport;

/**
 * The JUnit 5 extension behind {@link DroverTest}: resolves a {@link Drover} parameter of a test method (one per
 * test, temporary data_dir, jobs directory from the nearest {@link DroverTest#jobs()}) and closes it after the
 * test. Usable alone with {@code @ExtendWith(DroverExtension.class)}.
 */
public final class DroverExtension implements ParameterResolver, AfterEachCallback {
    private static final ExtensionContext.Namespace NAMESPACE = ExtensionContext.Namespace.create(DroverExtension.class);

    @Override
    public boolean supportsParameter(ParameterContext parameter, ExtensionContext context) {
        return parameter.getParameter().getType() == Drover.class;
    }

    @Override
    public Object resolveParameter(ParameterContext parameter, ExtensionContext context) {
        return context.getStore(NAMESPACE).getOrComputeIfAbsent(Drover.class,
                k -> Drover.open(null).jobsDir(Path.of(jobsDir(context))), Drover.class);
    }

    @Override
    public void afterEach(ExtensionContext context) {
        Drover drover = context.getStore(NAMESPACE).remove(Drover.class, Drover.class);
        if (drover != null) {
            drover.close();
        }
    }

    private static String jobsDir(ExtensionContext context) {
        Optional<ExtensionContext> c = Optional.of(context);
        while (c.isPresent()) {
            Optional<AnnotatedElement> element = c.get().getElement();
            Optional<DroverTest> found = element.flatMap(e -> AnnotationSupport.findAnnotation(e, DroverTest.class));
            if (found.isPresent()) {
                return found.get().jobs();
            }
            c = c.get().getParent();
        }
        return "";
    }
}
