#!/usr/bin/env bash
# max_runtime expiry lateness: N concurrent mock tasks with max_runtime 2s on the real clock; prints p50/p99 of
# (Max Runtime Exceeded event - (StartedAt + 2s)) (docs/performance.md).
# Usage: scripts/bench-max-runtime.sh [tasks] [store]   ("store": persist to a JournalStore, as the agent does)
set -euo pipefail
cd "$(dirname "$0")/.."
# One reactor build: the classpath file then names this checkout's jars, never stale ones in ~/.m2.
mvn -B -q -ntp -DskipTests package
cp="framework/cli/target/test-classes:framework/cli/target/drover-cli.jar:$(cat framework/cli/target/classpath.txt)"
store=false
if [ "${2:-}" = "store" ]; then store=true; fi
exec java -Dstore="$store" -cp "$cp" io.drover.cli.bench.MaxRuntimeBenchmark "${1:-200}" plugins/dist
