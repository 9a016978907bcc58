# The exec driver: each task runs as user nobody, chrooted into its task directory (with /bin /etc /lib* /sbin
# /usr bound read-only, the allocation's shared dir at /alloc), in its own mount and IPC namespaces. Needs an
# agent running as root (drover run as root; elsewhere the exec driver is unhealthy and the job fails at once).
# The leader shows what the task sees, then ends once the sidecar is ready; the sidecar traps its kill_signal
# and exits cleanly; the poststop task reads what the leader left in /alloc/data, named by a host path the
# engine interpolated and the driver rewrote. Run it with:  sudo ./drover run sample-jobs/exec.hcl
job "exec" {
  datacenters = ["dc1"]
  type        = "batch"

  group "isolated" {
    restart {
      attempts = 0
    }

    task "leader" {
      driver = "exec"
      leader = true
      config {
        command = "/bin/sh"
        args    = ["-c", "echo \"uid=$(id -u) NOMAD_TASK_DIR=$NOMAD_TASK_DIR NOMAD_ALLOC_DIR=$NOMAD_ALLOC_DIR\"; echo root: $(ls /); touch /usr/x 2>/dev/null || echo /usr is read-only; echo exec was here > /alloc/data/greeting; until [ -e /alloc/data/sidecar-ready ]; do sleep 0.02; done"]
      }
    }

    task "sidecar" {
      driver       = "exec"
      kill_signal  = "SIGTERM"
      kill_timeout = "5s"
      config {
        command = "/bin/sh"
        args    = ["-c", "trap 'echo got SIGTERM; exit 0' TERM; touch /alloc/data/sidecar-ready; while true; do sleep 1 & wait $!; done"]
      }
    }

    task "report" {
      driver = "exec"
      lifecycle {
        hook = "poststop"
      }
      config {
        command = "cat"
        args    = ["${NOMAD_ALLOC_DIR}/data/greeting"]
      }
    }
  }
}
