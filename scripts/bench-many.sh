#!/usr/bin/env bash
# Many-tasks benchmark: N concurrent sleep tasks through raw_exec, RSS and threads, then all SIGKILLed (docs/performance.md).
# Usage: scripts/bench-many.sh [tasks]
set -euo pipefail
cd "$(dirname "$0")/.."
mvn -B -q -ntp install -DskipTests
mvn -B -q -ntp -pl plugins/raw-exec dependency:build-classpath -Dmdep.includeScope=test \
    -Dmdep.outputFile=target/bench.classpath
cp="plugins/raw-exec/target/test-classes:plugins/raw-exec/target/classes:$(cat plugins/raw-exec/target/bench.classpath)"
exec java -cp "$cp" io.drover.plugins.rawexec.ManyTasksBenchmark "${1:-1000}"
