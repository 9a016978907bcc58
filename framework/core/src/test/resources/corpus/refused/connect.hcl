job "needs-connect" {
  group "g" {
    service {
      name     = "web"
      provider = "consul"
      connect {
        sidecar_service {}
      }
    }
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
