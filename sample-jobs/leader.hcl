# Leader semantics: when the leader task dies, the other tasks of the allocation are stopped —
# the other main task first, then the sidecar — even though they would run for an hour.
job "leader" {
  datacenters = ["dc1"]
  type        = "batch"

  group "pair" {
    task "sidecar" {
      driver       = "mock"
      kill_timeout = "1s"
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }
      config {
        run_for = "1h"
      }
    }

    task "leader" {
      driver = "mock"
      leader = true
      config {
        run_for   = "100ms"
        exit_code = 0
      }
    }

    task "worker" {
      driver       = "mock"
      kill_timeout = "1s"
      config {
        run_for = "1h"
      }
    }
  }
}
