# A workload identity for Vault (Nomad's vault_default): needs Vault.
job "vault-identity" {
  type = "batch"
  group "g" {
    task "t" {
      driver = "raw_exec"
      identity {
        name = "vault_default"
        aud  = ["vault.io"]
        file = true
      }
      config {
        command = "/bin/true"
      }
    }
  }
}
