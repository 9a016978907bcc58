# What a task needs at run time, together: meta, an artifact fetched over HTTP and unpacked, templates (one
# written as a file, one read into the env), and a dynamic port from the group network.
# The artifact comes from an HTTP server on loopback: RuntimeSampleEndToEndTest starts one and sets
# meta.artifact_port to its port; by hand, serve a site.tar.gz holding index.html, e.g.
#   (cd /tmp/site && tar czf ../site.tar.gz index.html && cd .. && python3 -m http.server 8765)
job "runtime" {
  type = "batch"
  meta {
    artifact_port = "8765"
    greeting      = "hello from the job"
  }
  group "web" {
    network {
      mode = "host"
      port "http" {}
    }
    task "serve" {
      driver = "raw_exec"
      meta {
        greeting = "hello from the task"
      }
      artifact {
        source      = "http://127.0.0.1:${NOMAD_META_artifact_port}/site.tar.gz"
        destination = "local/site"
      }
      template {
        data        = <<EOF
listen = "{{ env "NOMAD_IP_http" }}:{{ env "NOMAD_PORT_http" }}"
greeting = "{{ env "NOMAD_META_greeting" | toUpper }}"
{{ range $i, $s := split "," "a,b" }}item{{ $i }} = "{{ $s }}"
{{ end -}}
EOF
        destination = "local/app.conf"
      }
      template {
        data        = "APP_ADDR={{ env \"NOMAD_ADDR_http\" }}\n"
        destination = "secrets/app.env"
        env         = true
      }
      config {
        command = "sh"
        args    = ["-c", "cat local/site/index.html; cat local/app.conf; echo \"app_addr=$APP_ADDR arg=${meta.greeting}\""]
      }
    }
  }
}
