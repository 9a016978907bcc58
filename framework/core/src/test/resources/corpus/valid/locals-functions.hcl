# Locals that refer to each other in any order, and the jobspec's functions.
locals {
  full_name = "${local.prefix}-${lower(local.base)}"
  prefix    = "acme"
  base      = "API"
  ports     = [8080, 8081, 8082]
  settings  = jsondecode("{\"retries\": 3, \"mode\": \"fast\"}")
  encoded   = base64encode(jsonencode({ a = 1 }))
  tags      = compact(distinct(concat(["a", "b"], ["b", "", "c"])))
}

job "locals-functions" {
  datacenters = ["dc1"]
  type        = "batch"

  group "g" {
    count = length(local.ports) - 2

    task "t" {
      driver       = "mock"
      kill_timeout = format("%ds", local.settings.retries * 2)

      config {
        run_for   = "10ms"
        name      = local.full_name
        upper     = upper(local.full_name)
        joined    = join(",", local.tags)
        first     = element(local.ports, 0)
        biggest   = max(local.ports...)
        padded    = format("%05d", 42)
        trimmed   = trimspace("  x  ")
        replaced  = replace("a-b-c", "-", "_")
        split     = split(",", "x,y")
        merged    = merge({ a = 1 }, { b = 2 })
        looked_up = lookup({ a = "A" }, "b", "default")
        has_b     = contains(local.tags, "b")
        keys      = keys({ z = 1, y = 2 })
        encoded   = local.encoded
        decoded   = base64decode(local.encoded)
        ranged    = range(1, 4)
        flat      = flatten([[1], [2, [3]]])
        regex     = regex("v([0-9]+)", "v42")
        chomped   = chomp("line\n")
        titled    = title("hello world")
        sub       = substr("drover", 0, 3)
        number    = parseint("ff", 16) + abs(-1) + ceil(0.5) + floor(1.5)
        coalesced = coalesce("", "fallback")
        converted = tonumber("12") + tostring(3)
        sha       = sha256("x")
        uuid_ok   = length(uuidv4()) == 36
        ts_ok     = can(timestamp())
        tried     = try(local.settings.missing, "no such key")
      }
    }
  }
}
