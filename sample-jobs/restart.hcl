# A main task that always fails, restarted per the group's restart policy:
# 3 runs of 50ms, 100ms apart (attempts = 2 restarts), then "Not Restarting" and the allocation fails.
# `drover run sample-jobs/restart.hcl` therefore exits with code 1: that is the expected outcome.
job "restart" {
  datacenters = ["dc1"]
  type        = "batch"

  group "flaky" {
    restart {
      attempts = 2
      interval = "1m"
      delay    = "100ms"
      mode     = "fail"
    }

    # Nomad's batch default would then place one replacement 5s later (which fails the same way): this
    # sample shows the restart policy alone (sample-jobs/ has no rescheduling sample; docs/jobs.md does)
    reschedule {
      attempts  = 0
      unlimited = false
    }

    task "fails" {
      driver = "mock"
      config {
        run_for      = "50ms"
        exit_code    = 1
        exit_err_msg = "simulated failure"
      }
    }
  }
}
