#!/usr/bin/env bash
# max_runtime expiry lateness: N concurrent mock tasks with max_runtime LIMIT seconds on the real clock; p50/p99
# of (Max Runtime Exceeded event - (Started + LIMIT)) (docs/performance.md): drover bench's max_runtime row, alone.
# Usage: scripts/bench-max-runtime.sh [tasks=200] [store] [limit-seconds=1]
#   ("store": persist every change to a JournalStore first, as the agent does)
set -euo pipefail
cd "$(dirname "$0")/.."
store=false
if [ "${2:-}" = "store" ]; then store=true; fi
uptime
exec ./drover bench --only max_runtime \
  --param "max_runtime.tasks=${1:-200},max_runtime.store=$store,max_runtime.limit=${3:-1}"
