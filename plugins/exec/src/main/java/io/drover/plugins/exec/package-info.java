/**
 * The exec driver plugin: Nomad's exec on Drover's process supervision ({@code io.drover.process}, shaded into
 * this plugin's JAR as in raw_exec), with each task in a chroot of its task directory, in private mount and IPC
 * namespaces, as user nobody. On by default; healthy only as root with unshare, mount and chroot.
 */
package io.drover.plugins.exec;
