# Variables of every type constraint, with defaults and a validation block.
variable "datacenters" {
  description = "Where the job may run"
  type        = list(string)
  default     = ["dc1"]
}

variable "replicas" {
  type    = number
  default = 2
  validation {
    condition     = var.replicas >= 1 && var.replicas <= 5
    error_message = "The replicas must be 1 to 5."
  }
}

variable "labels" {
  type    = map(string)
  default = { team = "core", tier = "web" }
}

variable "server" {
  type = object({
    port    = number
    verbose = bool
  })
  default = {
    port    = 8080
    verbose = "true"
  }
}

variable "anything" {
  type    = any
  default = null
}

job "variables" {
  datacenters = var.datacenters
  type        = "service"

  group "web" {
    count = var.replicas

    task "server" {
      driver = "raw_exec"

      config {
        command = "/bin/sh"
        args    = ["-c", "exec sleep 3600", "--port=${var.server.port}"]
      }

      env {
        TEAM    = var.labels["team"]
        TIER    = var.labels.tier
        VERBOSE = var.server.verbose
        EXTRA   = var.anything == null ? "none" : "set"
      }
    }
  }
}
