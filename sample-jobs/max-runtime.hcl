# max_runtime: a wall-clock limit of one run of a task (Drover's own key). The group's value is the
# default of every task, so it also bounds the poststop task; "slow" has its own, shorter limit.
# "slow" ignores SIGTERM and would run forever: after 1s it gets a "Max Runtime Exceeded" event, its
# kill_signal, then SIGKILL after kill_timeout ("Exit Code: 137, Signal: 9"). The run counts as failed
# and is not restarted (even though the restart policy allows it), so the allocation fails and
# 'drover run' exits 1. The poststop task then reads what happened. Real processes through raw_exec
# (enabled in 'drover run' dev mode).
job "max-runtime" {
  type = "batch"

  group "demo" {
    max_runtime = "30s"

    # no replacement of the failed allocation (Nomad's batch default places one 5s later)
    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "slow" {
      driver       = "raw_exec"
      max_runtime  = "1s"
      kill_signal  = "SIGTERM"
      kill_timeout = "500ms"
      config {
        command = "sh"
        args    = ["-c", "trap 'echo ignoring SIGTERM' TERM; echo working; while true; do sleep 0.05; done"]
      }
    }

    task "report" {
      driver = "raw_exec"
      lifecycle {
        hook = "poststop"
      }
      config {
        command = "sh"
        args    = ["-c", "cat ${NOMAD_ALLOC_DIR}/results.json; echo result=$DROVER_ALLOC_RESULT failed=$DROVER_FAILED_TASKS"]
      }
    }
  }
}
