#!/usr/bin/env bash
# GET /v1/allocation/:id latency (p50/p99, open-loop) at RATE req/s while ~100 mock allocations churn
# (docs/performance.md). Usage: scripts/bench-alloc-get.sh [rate] [seconds] [warmup-seconds]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp -DskipTests package
touch framework/cli/target/drover-cli.jar   # as the launcher does after a build: no rebuild from ./drover
cp="framework/cli/target/test-classes:framework/cli/target/drover-cli.jar:$(cat framework/cli/target/classpath.txt)"
./drover run sample-jobs/lifecycle.hcl >/dev/null 2>&1 || true   # records the AppCDS archive if missing
uptime
java -cp "$cp" io.drover.cli.bench.AllocGetBenchmark "${1:-200}" "${2:-30}" "${3:-10}" ./drover plugins/dist
uptime
