# The seed's job_spec.hcl with a poststop task that ignores SIGTERM (as a cleanup script stuck on a lock
# would). Run it on an agent with gc_max_allocs = 1 (sample-jobs/agent-kill-poststop.hcl), then run any
# second job:
#   - gc_kill_policy = "preserve_states" (default): the poststop task is never killed; its allocation stays
#     live and GC skips it (the agent logs "garbage collection skipped ...").
#   - gc_kill_policy = "kill_poststop": GC sends SIGTERM, then SIGKILL after kill_timeout (2s), records
#     Killing / Terminated (Signal 9) / Killed, then destroys the allocation and keeps every state and event.
# Uncomment gc_kill below to override the agent's policy for this task only.
job "gc-kill-poststop" {
  datacenters = ["dc1"]
  type        = "batch"

  group "test-group" {
    task "test-task" {
      driver = "raw_exec"

      config {
        command = "echo"
        args    = ["foo"]
      }
    }

    task "poststop" {
      driver       = "raw_exec"
      kill_signal  = "SIGTERM"
      kill_timeout = "2s"

      lifecycle {
        hook    = "poststop"
        sidecar = false
        # gc_kill = true
      }

      config {
        command = "sh"
        args    = ["-c", "trap '' TERM; echo bar; sleep 60"]
      }
    }
  }
}
