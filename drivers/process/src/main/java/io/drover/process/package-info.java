/**
 * Process supervision shared by the driver plugins that spawn processes (raw_exec, later java), shaded into
 * each of them.
 *
 * <h2>Starting</h2>
 * {@link io.drover.process.ProcessSupervisor#spawn} calls glibc's {@code posix_spawn} through jnr-ffi (not
 * {@code ProcessBuilder}, which cannot make a process group, costs ~2 ms per launch and one JDK reaper thread
 * per child): {@code POSIX_SPAWN_SETSID} puts the task in a new session and group (pid = sid = pgid), the file
 * actions open stdin on /dev/null and append stdout/stderr to the task's log files, {@code addchdir_np} sets
 * the work dir and {@code addclosefrom_np(3)} closes every JVM descriptor; signal mask and dispositions are
 * reset. The command is resolved against the task's own PATH. Failures carry the OS reason
 * ({@link io.drover.process.SpawnException}).
 *
 * <h2>Watching</h2>
 * One thread per supervisor ({@link io.drover.process.ExitWatcher}) waits in {@code epoll_wait} on a pidfd
 * per child; a pidfd becomes readable when its process exits, and the thread reaps exactly that pid with
 * {@code waitpid(pid, WNOHANG)} — never {@code waitpid(-1)}, which would steal the JDK's own children. So no
 * zombie stays, and threads do not grow with tasks.
 *
 * <h2>Signals and tree kill</h2>
 * Signals go to the whole group ({@code kill(-pgid, sig)}). SIGKILL goes through
 * {@link io.drover.process.TreeKiller}: collect the session, the group and every descendant by parent links
 * from {@code /proc} before killing (orphans are re-parented), pin each with a pidfd checked against its start
 * time, kill, and verify on the watcher thread that each died; survivors are reported in a
 * {@link io.drover.process.KillReport}. A task's exit is reported only after its tree kill is verified.
 *
 * <p>Linux x86_64, glibc ≥ 2.36 only (pidfd_open, addclosefrom_np; the packed epoll_event layout).
 */
package io.drover.process;
