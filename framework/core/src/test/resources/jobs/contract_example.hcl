job "example" {
  datacenters = ["dc1"]          # accepted, informational
  type        = "batch"          # batch | service
  group "test-group" {
    count = 1
    restart {
      attempts = 3
      interval = "24h"
      delay    = "15s"
      mode     = "fail"          # fail | delay
    }
    max_runtime = "10m"          # optional: default for every task of the group
    task "test-task" {
      driver         = "raw_exec"
      leader         = false
      kill_timeout   = "5s"      # grace between kill_signal and SIGKILL
      kill_signal    = "SIGINT"  # Nomad's default
      shutdown_delay = "0s"
      max_runtime    = "30s"     # optional wall-clock limit of one run of the task
      env {
        FOO = "bar"
      }
      config {
        command = "echo"
        args    = ["foo", "${NOMAD_TASK_NAME}"]   # Nomad's runtime variables are interpolated
      }
      logs {
        max_files     = 10
        max_file_size = 10       # MiB
      }
    }
    task "poststop" {
      driver = "raw_exec"
      lifecycle {
        hook    = "poststop"     # prestart | poststart | poststop
        sidecar = false
      }
      config {
        command = "echo"
        args    = ["bar"]
      }
    }
  }
}
