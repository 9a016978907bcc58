# Probes a URL every second until stopped; the task fails when a probe does not answer 200.
# PROBE_URL is replaced by scripts/sdk-check.sh (or edit it).
job "http-probe" {
  type = "batch"

  group "probe" {
    task "probe" {
      driver = "http_probe"
      config {
        url           = "PROBE_URL"
        interval      = "1s"
        expect_status = 200
        max_probes    = 3
      }
    }
  }
}
