#!/bin/sh
# Engine throughput and footprint with the mock driver and the durable store (docs/performance.md):
# 3-task allocations run to their end (allocations/s), then N concurrent running tasks (heap, RSS, threads)
# and the time to stop them. Usage: scripts/bench-engine.sh [allocs] [concurrent] [workers]
set -e
cd "$(dirname "$0")/.."
mvn -B -q -ntp -pl framework/core -am test-compile
mvn -B -q -ntp -pl framework/core dependency:build-classpath -Dmdep.outputFile=target/engine-bench.cp
exec java -Xmx512m -cp "framework/core/target/test-classes:framework/core/target/classes:$(cat framework/core/target/engine-bench.cp)" \
  io.drover.core.engine.EngineBench "${1:-5000}" "${2:-10000}" ${3:+"$3"}
