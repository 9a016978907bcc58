#!/usr/bin/env bash
# Agent start to API ready with N allocation records in the store (docs/performance.md).
# Usage: scripts/bench-agent-start.sh [allocations] [runs] [dir]
#   Builds once, prepares DIR (default: a new temp dir) with N finished allocations through an in-process agent,
#   then starts './drover agent' RUNS times on it (fresh JVM, the launcher's flags and AppCDS archive).
set -euo pipefail
cd "$(dirname "$0")/.."
n="${1:-10000}"; runs="${2:-5}"; dir="${3:-$(mktemp -d /tmp/drover-bench-start.XXXXXX)}"
mvn -B -q -ntp -DskipTests package
touch framework/cli/target/drover-cli.jar   # as the launcher does after a build: no rebuild from ./drover
cp="framework/cli/target/test-classes:framework/cli/target/drover-cli.jar:$(cat framework/cli/target/classpath.txt)"
if [ ! -f "$dir/last-alloc" ]; then
  java -cp "$cp" io.drover.cli.bench.AgentStartBenchmark prepare "$dir" "$n" plugins/dist
fi
./drover run sample-jobs/lifecycle.hcl >/dev/null 2>&1 || true   # records the AppCDS archive if missing
uptime
exec java -cp "$cp" io.drover.cli.bench.AgentStartBenchmark measure "$dir" "$runs" ./drover
