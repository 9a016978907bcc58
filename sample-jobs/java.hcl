# The java driver: runs the class sample-jobs/java/Hello.java in a child JVM (the JDK running Drover), then a
# poststop task. The build compiles Hello.java into sample-jobs/java/classes (./drover builds on first use);
# ${DROVER_HOME} is the repository root, which the ./drover launcher passes to Drover (see docs/jobs.md,
# "Java driver options"). The child JVM runs as nobody when the agent is root (the plugin's default_user; a
# config { user = "..." } picks another, never root unless the plugin allows it), else as the agent's user.
# Run it with:  ./drover run sample-jobs/java.hcl
job "java" {
  datacenters = ["dc1"]
  type        = "batch"

  group "hello" {
    restart {
      attempts = 0
    }

    task "hello" {
      driver = "java"
      config {
        class       = "Hello"
        class_path  = "${DROVER_HOME}/sample-jobs/java/classes"
        # a tiny program: start fast, stay small
        jvm_options = ["-Xshare:auto", "-XX:TieredStopAtLevel=1", "-XX:+UseSerialGC", "-Xmx32m"]
        args        = ["from", "job", "${NOMAD_JOB_NAME}"]
      }
    }

    task "goodbye" {
      driver = "mock"
      lifecycle {
        hook = "poststop"
      }
      config {
        run_for       = "10ms"
        stdout_string = "hello is done"
      }
    }
  }
}
