job "a-csi-plugin" {
  type = "system"
  group "nodes" {
    task "plugin" {
      driver = "raw_exec"
      config {
        command = "/usr/local/bin/csi-driver"
      }
      csi_plugin {
        id        = "hostpath"
        type      = "node"
        mount_dir = "/csi"
      }
    }
  }
}
