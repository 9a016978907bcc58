/**
 * Drover's test kit: run job files on the real engine with the mock driver under a virtual clock, and assert on
 * allocations, task states and event order. Start at {@link io.drover.testkit.DroverTest} and
 * {@link io.drover.testkit.DroverAssertions}; docs/testkit.md has the guide.
 */
package io.drover.testkit;
