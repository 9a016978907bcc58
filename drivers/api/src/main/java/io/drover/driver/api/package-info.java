/**
 * Drover's driver SPI: the small set of types a driver plugin compiles against. A plugin implements
 * {@link io.drover.driver.api.TaskDriver}, marks it with {@code @org.pf4j.Extension} and ships as a PF4J JAR
 * with this module and pf4j in {@code provided} scope.
 */
package io.drover.driver.api;
