package io.drover.process;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.extension.AfterAllCallback;
import org.junit.jupiter.api.extension.BeforeAllCallback;
import org.junit.jupiter.api.extension.ExtensionContext;

/**
 * Real {@link ProcessSupervisor}s shared by the tests of one class: created before its first test, closed after
 * its last (after {@link ProcessLeakCheck} has checked each test). Register it on a static field:
 * {@code @RegisterExtension static final SupervisorFixture SUPERVISORS = SupervisorFixture.of("first", "second");}
 * where a second supervisor stands for a restarted agent re-attaching to the first one's tasks. Read the
 * supervisors only from tests and the class's own callbacks (JUnit's thread).
 */
final class SupervisorFixture implements BeforeAllCallback, AfterAllCallback {
    private final List<String> names;
    private final List<ProcessSupervisor> supervisors = new ArrayList<>();

    private SupervisorFixture(List<String> names) {
        this.names = names;
    }

    /** @param names one supervisor per name (its thread names), in order */
    static SupervisorFixture of(String... names) {
        return new SupervisorFixture(List.of(names));
    }

    @Override
    public void beforeAll(ExtensionContext context) {
        for (String name : names) {
            supervisors.add(ProcessSupervisor.create(name));
        }
    }

    @Override
    public void afterAll(ExtensionContext context) {
        supervisors.forEach(ProcessSupervisor::close);
        supervisors.clear();
    }

    /** The first (or only) supervisor. */
    ProcessSupervisor first() {
        return supervisors.get(0);
    }

    /** The second supervisor: a restarted agent's. */
    ProcessSupervisor second() {
        return supervisors.get(1);
    }
}
