/**
 * The java driver plugin: Nomad's java driver on Drover's process supervision ({@code io.drover.process},
 * shaded into this plugin's JAR with jnr-ffi and jffi, as in raw_exec). On by default, as in Nomad.
 */
package io.drover.plugins.java;
