# for expressions over lists and maps, grouping, filters, splats and dynamic blocks.
locals {
  services = [
    { name = "api", port = 8080 },
    { name = "admin", port = 9090 },
  ]
  by_name = { for s in local.services : s.name => s.port }
  names   = local.services[*].name
  ports   = [for s in local.services : s.port if s.port > 8000]
  grouped = { for s in ["a1", "a2", "b1"] : substr(s, 0, 1) => s... }
  legacy  = local.services.*.port
}

job "for-dynamic-splat" {
  datacenters = ["dc1"]
  type        = "batch"

  group "g" {
    dynamic "task" {
      for_each = local.by_name
      iterator = svc
      labels   = [svc.key]
      content {
        driver = "mock"
        config {
          run_for = "10ms"
          port    = svc.value
          all     = join(" ", local.names)
          first   = local.ports[0]
          groups  = length(local.grouped["a"])
          legacy  = local.legacy[1]
        }
      }
    }
  }
}
