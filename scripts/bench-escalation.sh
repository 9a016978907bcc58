#!/usr/bin/env bash
# Kill escalation precision: N concurrent SIGTERM-ignoring raw_exec tasks, kill_timeout 1s, stopped at once;
# prints p50/p99 lateness of the timer thread, the SIGKILL request, the SIGKILL landing on the group and the
# Terminated event (docs/performance.md). Usage: scripts/bench-escalation.sh [tasks] [busy|idle]
set -euo pipefail
cd "$(dirname "$0")/.."
# One reactor build: the classpath file then names this checkout's jars, never stale ones in ~/.m2.
mvn -B -q -ntp -DskipTests package
cp="framework/cli/target/test-classes:framework/cli/target/drover-cli.jar:$(cat framework/cli/target/classpath.txt)"
exec java -Dworkload="${2:-busy}" -cp "$cp" io.drover.cli.bench.EscalationBenchmark "${1:-100}" plugins/dist
