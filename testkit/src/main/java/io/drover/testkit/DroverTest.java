package io.drover.testkit;

import java.lang.annotation.Documented;
import java.lang.annotation.ElementType;
import java.lang.annotation.Inherited;
import java.lang.annotation.Retention;
import java.lang.annotation.RetentionPolicy;
import java.lang.annotation.Target;
import org.junit.jupiter.api.extension.ExtendWith;

/**
 * Marks a JUnit 5 test class (or method) whose tests take a {@link Drover} parameter: a fresh one per test,
 * with a temporary data_dir, closed and deleted after the test.
 *
 * <pre>{@code
 * @DroverTest(jobs = "jobs")
 * class WebJobTest {
 *     @Test
 *     void cleanupRunsAfterWeb(Drover drover) {
 *         Allocation alloc = drover.simulate("raw_exec").run("web.hcl");
 *         assertThat(alloc).isComplete().task("cleanup").startedAfter("web", TERMINATED);
 *     }
 * }
 * }</pre>
 */
@Documented
@Inherited
@Retention(RetentionPolicy.RUNTIME)
@Target({ElementType.TYPE, ElementType.METHOD})
@ExtendWith(DroverExtension.class)
public @interface DroverTest {
    /** Directory (from the working directory, the module's in Maven) that relative job file names resolve against. */
    String jobs() default "";
}
