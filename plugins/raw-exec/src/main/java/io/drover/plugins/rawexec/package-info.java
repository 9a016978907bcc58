/**
 * The raw_exec driver plugin: Nomad's raw_exec on Drover's process supervision ({@code io.drover.process},
 * shaded into this plugin's JAR with jnr-ffi and jffi). Off unless the operator enables it.
 */
package io.drover.plugins.rawexec;
