# The seed's client (gc_max_allocs = 1, raw_exec enabled) with gc_kill_policy = "kill_poststop":
#   ./drover agent -config sample-jobs/agent-kill-poststop.hcl
# Remove gc_kill_policy (or set "preserve_states") for the default policy.
data_dir   = "/tmp/drover-kill-poststop"
plugin_dir = "../plugins/dist"   # relative to this file

client {
  gc_max_allocs  = 1
  gc_kill_policy = "kill_poststop"
}

plugin "raw_exec" {
  config {
    enabled = true
  }
}
