package io.drover.testkit;

/**
 * Entry point of the kit's fluent assertions. Every assertion fails with an {@link AssertionError} that names the
 * allocation, the task and what was found (event types by Nomad's names). Statically import
 * {@code DroverAssertions.assertThat}; it does not clash with AssertJ's (different parameter type).
 */
public final class DroverAssertions {
    private DroverAssertions() {}

    /** Assertions on an allocation the kit ran. */
    public static AllocationAssert assertThat(Allocation allocation) {
        return new AllocationAssert(allocation);
    }
}
