# Keys of issue 15 that one node applies: an allocation deadline, workload identities, a task user, placement
# and preference blocks, and resources { disk }, with the blocks kept in the job's JSON.
job "workloads" {
  type        = "batch"
  datacenters = ["dc1"]
  priority    = 80

  constraint {
    attribute = "${attr.kernel.name}"
    value     = "linux"
  }

  affinity {
    attribute = "${node.datacenter}"
    value     = "dc1"
    weight    = 50
  }

  spread {
    attribute = "${node.datacenter}"
    target "dc1" {
      percent = 100
    }
  }

  group "batch" {
    max_run_duration = "10m"

    ephemeral_disk {
      size = 150
    }

    task "client" {
      driver = "raw_exec"

      identity {
        env  = true
        file = true
      }

      identity {
        name = "example"
        aud  = ["example.com"]
        ttl  = "1h"
        file = true
      }

      config {
        command = "/bin/sh"
        args    = ["-c", "test -n \"$NOMAD_TOKEN\" && cat secrets/nomad_example.jwt"]
      }

      resources {
        cpu    = 100
        memory = 64
        disk   = 100
      }
    }

    task "isolated" {
      driver = "exec"
      user   = "nobody"

      affinity {
        attribute = "${attr.cpu.arch}"
        operator  = "!="
        value     = "arm64"
        weight    = -20
      }

      config {
        command = "/bin/true"
      }
    }
  }
}
