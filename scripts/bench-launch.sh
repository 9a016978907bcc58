#!/usr/bin/env bash
# Launch benchmark: 500 sequential /bin/true through raw_exec vs a bare ProcessBuilder loop (docs/performance.md).
# Usage: scripts/bench-launch.sh [runs] [warmup]
set -euo pipefail
cd "$(dirname "$0")/.."
# reactor build (no install: ~/.m2 may be shared); reactor modules resolve to their target/classes
mvn -B -q -ntp -pl plugins/raw-exec -am test-compile dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench.classpath
cp="plugins/raw-exec/target/test-classes:plugins/raw-exec/target/classes:$(cat plugins/raw-exec/target/bench.classpath)"
exec java -cp "$cp" io.drover.plugins.rawexec.LaunchBenchmark "${1:-500}" "${2:-200}"
