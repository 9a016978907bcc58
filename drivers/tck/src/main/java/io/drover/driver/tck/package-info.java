/**
 * The driver TCK: {@link io.drover.driver.tck.DriverTck}, the contract every driver passes, and the clocks a
 * driver's tests use ({@link io.drover.driver.tck.VirtualTimers}, {@link io.drover.driver.tck.WallTimers}).
 */
package io.drover.driver.tck;
