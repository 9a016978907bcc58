#!/usr/bin/env bash
# GET /v1/allocation/:id latency (p50/p99, open-loop) at RATE req/s while ~100 mock allocations churn
# (docs/performance.md): drover bench's alloc_get row, run alone.
# Usage: scripts/bench-alloc-get.sh [rate=200] [seconds=30] [warmup-seconds=10] [churn=true]
set -euo pipefail
cd "$(dirname "$0")/.."
uptime
./drover bench --only alloc_get \
  --param "alloc_get.rate=${1:-200},alloc_get.seconds=${2:-30},alloc_get.warmup=${3:-10},alloc_get.churn=${4:-true}"
uptime
