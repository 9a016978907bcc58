job "needs-csi" {
  group "g" {
    volume "data" {
      type   = "csi"
      source = "ebs-vol"
    }
    task "t" {
      driver = "raw_exec"
      config {
        command = "/bin/true"
      }
    }
  }
}
