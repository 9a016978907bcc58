#!/usr/bin/env bash
# Client GC of N terminal mock allocations (3 tasks each) with the durable store: time from 'system gc' until
# every destroyed state is durable, and the records kept after reopening the store (docs/performance.md).
# Usage: scripts/bench-gc.sh [allocations=10000] [gc_parallel_destroys=2] [dir]
set -euo pipefail
cd "$(dirname "$0")/.."
# Reactor build of this checkout (never ~/.m2's io.drover artifacts).
mvn -B -q -ntp -pl framework/core -am test-compile
mvn -B -q -ntp -pl framework/core dependency:build-classpath -Dmdep.outputFile=target/gc-bench.cp \
  -Dmdep.includeScope=test
dir="${3:-$(mktemp -d)}"
trap 'rm -rf "$dir"' EXIT
uptime
java -cp "framework/core/target/test-classes:framework/core/target/classes:$(cat framework/core/target/gc-bench.cp)" \
  io.drover.core.engine.GcBench "$dir" "${1:-10000}" "${2:-2}"
