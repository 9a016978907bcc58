job "needs-consul" {
  group "g" {
    service {
      name = "web"
      port = "http"
    }
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
