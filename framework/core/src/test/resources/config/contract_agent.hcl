data_dir   = "/var/lib/drover"     # state database, alloc dirs
plugin_dir = "./plugins"           # driver plugin JARs dropped here are loaded
log_level  = "INFO"
bind_addr  = "127.0.0.1"
ports { http = 4747 }
client {
  gc_interval             = "1m"
  gc_max_allocs           = 50
  gc_disk_usage_threshold = 80
  gc_parallel_destroys    = 2
  gc_kill_policy          = "preserve_states"   # or "kill_poststop"
  max_kill_timeout        = "30s"
  record_retention        = "24h"
}
plugin "raw_exec" {                # raw_exec is off unless enabled
  config {
    enabled = true
  }
}
