# Every lifecycle hook of one allocation, with the mock driver (no processes, ~0.3 s in all):
#   init (prestart) runs to completion -> proxy (prestart sidecar) starts and stays ->
#   web (main) runs 150ms; notify (poststart) runs once web is running ->
#   web exits 0: proxy is stopped -> cleanup (poststop) runs -> the allocation is complete.
# Run it: ./drover run sample-jobs/lifecycle.hcl   (the events show that order)
job "lifecycle" {
  datacenters = ["dc1"]
  type        = "batch"

  group "app" {
    task "init" {
      driver = "mock"
      lifecycle {
        hook    = "prestart"
        sidecar = false
      }
      config {
        run_for = "50ms"
      }
    }

    task "proxy" {
      driver       = "mock"
      kill_timeout = "1s"
      lifecycle {
        hook    = "prestart"
        sidecar = true
      }
      config {
        run_for = "1h"          # runs until the engine stops it, after web is done
      }
    }

    task "web" {
      driver = "mock"
      config {
        run_for       = "150ms"
        exit_code     = 0
        stdout_string = "hello from web"
      }
    }

    task "notify" {
      driver = "mock"
      lifecycle {
        hook = "poststart"
      }
      config {
        run_for = "20ms"
      }
    }

    task "cleanup" {
      driver = "mock"
      lifecycle {
        hook = "poststop"
      }
      config {
        run_for = "20ms"
      }
    }
  }
}
