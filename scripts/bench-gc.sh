#!/usr/bin/env bash
# Client GC of N terminal mock allocations (3 tasks each) with the durable store: time from 'system gc' until
# every destroyed state is durable, the trash deletion after it, and the records kept after reopening the store
# (docs/performance.md): drover bench's gc row, run alone.
# Usage: scripts/bench-gc.sh [allocations=10000] [gc_parallel_destroys=2] [dir] [store=true]
set -euo pipefail
cd "$(dirname "$0")/.."
args=(--only gc --param "gc.allocations=${1:-10000},gc.parallel=${2:-2},gc.store=${4:-true}")
if [ -n "${3:-}" ]; then args+=(--work-dir "$3"); fi
uptime
exec ./drover bench "${args[@]}"
