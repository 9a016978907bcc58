# Strings as templates: interpolation, directives, strip markers, heredocs and the escapes.
variable "users" {
  type    = list(string)
  default = ["ann", "bob"]
}

variable "debug" {
  type    = bool
  default = false
}

job "templates-heredocs" {
  datacenters = ["dc1"]
  type        = "batch"

  group "g" {
    task "t" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args = [
          "-c",
          <<-EOT
            %{ for u in var.users ~}
            echo "hello ${u}"
            %{ endfor ~}
            echo "${var.debug ? "debug" : "quiet"}"
            echo "task dir: ${NOMAD_TASK_DIR}"
            echo "literal: $${NOT_INTERPOLATED} and %%{ not a directive }"
          EOT
        ]
      }

      env {
        PLAIN  = <<EOF
kept as written ${upper("x")}
EOF
        IFELSE = "%{ if var.debug }on%{ else }off%{ endif }"
        NODE   = "${node.unique.name}"
      }
    }
  }
}
