# Blocks a cluster gives their meaning: accepted and checked, nothing to do on one node.
job "cluster-blocks" {
  datacenters = ["dc1", "dc2"]
  region      = "global"
  namespace   = "default"
  node_pool   = "default"
  priority    = 70
  all_at_once = false
  type        = "service"

  update {
    max_parallel     = 1
    min_healthy_time = "10s"
    healthy_deadline = "3m"
    auto_revert      = true
    canary           = 0
  }

  migrate {
    max_parallel = 1
    health_check = "checks"
  }

  group "g" {
    count = "1"

    reschedule {
      attempts       = 3
      interval       = "1h"
      delay          = "30s"
      delay_function = "exponential"
      max_delay      = "10m"
      unlimited      = false
    }

    scaling {
      min     = 1
      max     = 3
      enabled = true
    }

    ephemeral_disk {
      size    = 300
      sticky  = true
      migrate = false
    }

    service {
      name     = "web"
      provider = "nomad"
    }

    task "t" {
      driver = "raw_exec"
      leader = "true"

      config {
        command = "/bin/sleep"
        args    = ["3600"]
      }

      resources {
        cpu        = "100"
        memory     = 64
        memory_max = -1
      }
    }
  }
}
