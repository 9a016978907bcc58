#!/usr/bin/env bash
# Launch benchmark: 500 sequential /bin/true through raw_exec vs a bare ProcessBuilder loop, interleaved, after
# 200 warm-up runs of each (docs/performance.md). It is drover bench's launch row, run alone.
set -euo pipefail
cd "$(dirname "$0")/.."
uptime
exec ./drover bench --only launch "$@"
