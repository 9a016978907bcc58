job "needs-vault" {
  group "g" {
    task "t" {
      driver = "raw_exec"
      vault {
        policies = ["read"]
      }
      config {
        command = "/bin/true"
      }
    }
  }
}
