# Kill escalation: the leader exits after a moment; its sibling ignores SIGTERM, so after its
# kill_timeout the engine escalates to SIGKILL ("Exit Code: 137, Signal: 9"), then the poststop
# task runs. Real processes through raw_exec (enabled in 'drover run' dev mode).
job "kill-escalation" {
  type = "batch"

  group "demo" {
    task "leader" {
      driver = "raw_exec"
      leader = true
      config {
        command = "sh"
        args    = ["-c", "sleep 0.2; echo leader done"]
      }
    }

    task "stubborn" {
      driver       = "raw_exec"
      kill_signal  = "SIGTERM"
      kill_timeout = "500ms"
      config {
        command = "sh"
        args    = ["-c", "trap 'echo ignoring SIGTERM' TERM; while true; do sleep 0.05; done"]
      }
    }

    task "report" {
      driver = "raw_exec"
      lifecycle {
        hook = "poststop"
      }
      config {
        command = "sh"
        args    = ["-c", "cat ${NOMAD_ALLOC_DIR}/results.json; echo result=$DROVER_ALLOC_RESULT"]
      }
    }
  }
}
