# Host volumes as Nomad has them: a group volume names a client host_volume, a task mounts it.
job "host-volumes" {
  type = "batch"

  group "db" {
    count = 2

    volume "data" {
      type      = "host"
      source    = "pgdata"
      per_alloc = true
    }

    volume "certs" {
      type        = "host"
      source      = "certs"
      read_only   = true
      access_mode = "single-node-reader-only"
    }

    task "server" {
      driver = "exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "ls /srv/data /local/certs"]
      }

      volume_mount {
        volume      = "data"
        destination = "/srv/data"
      }

      volume_mount {
        volume           = "certs"
        destination      = "${NOMAD_TASK_DIR}/certs"
        read_only        = true
        propagation_mode = "private"
        selinux_label    = "z"
      }
    }
  }
}
