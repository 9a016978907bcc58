#!/usr/bin/env bash
# Agent start to API ready with N allocation records in the store (docs/performance.md): drover bench's
# agent_start row, run alone. Usage: scripts/bench-agent-start.sh [allocations=10000] [runs=5] [dir]
#   DIR (--work-dir) keeps the prepared store: a later run with the same DIR and count reuses it.
set -euo pipefail
cd "$(dirname "$0")/.."
args=(--only agent_start --param "agent_start.allocations=${1:-10000},agent_start.runs=${2:-5}")
if [ -n "${3:-}" ]; then args+=(--work-dir "$3"); fi
uptime
exec ./drover bench "${args[@]}"
