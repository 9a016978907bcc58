#!/usr/bin/env bash
# Shim per task vs one executor process: per-launch cost in C (docs/performance.md). Builds the shim the way the
# Maven build does, runs scripts/bench-supervision-designs.c. Usage: scripts/bench-supervision-designs.sh [N]
set -euo pipefail
cd "$(dirname "$0")/.."
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
gcc -O2 -s -static -nostdlib -ffreestanding -fno-stack-protector -fno-pie -no-pie -fno-asynchronous-unwind-tables -o "$out/drover-shim" drivers/process/src/main/c/drover-shim.c
gcc -O2 -o "$out/bench" scripts/bench-supervision-designs.c
uptime
"$out/bench" "$out/drover-shim" "$out/status" "${1:-500}"
