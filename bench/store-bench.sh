#!/bin/sh
# Durable-event throughput (group commit), per-batch sync latency and 10,000-allocation load time of the
# state store. Usage: bench/store-bench.sh [dir] [seconds] [threads]
set -e
cd "$(dirname "$0")/.."
mvn -B -q -ntp -pl framework/core -am test-compile
mvn -B -q -ntp -pl framework/core dependency:build-classpath -Dmdep.outputFile="$PWD/target/store-bench.cp"
exec java -cp "framework/core/target/test-classes:framework/core/target/classes:$(cat target/store-bench.cp)" \
  io.drover.core.store.StoreBench "${1:-$(mktemp -d)}" "${2:-10}" "${3:-8}"
