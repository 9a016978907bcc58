#!/usr/bin/env bash
# Kill escalation precision: N concurrent SIGTERM-ignoring raw_exec tasks, kill_timeout 1s, stopped at once;
# prints p50/p99 lateness of the timer thread, the SIGKILL request, the SIGKILL landing on the group, the exit
# report and the Terminated event (docs/performance.md): drover bench's escalation row, run alone.
# Usage: scripts/bench-escalation.sh [tasks=100] [busy|idle]
set -euo pipefail
cd "$(dirname "$0")/.."
idle=false
if [ "${2:-busy}" = idle ]; then idle=true; fi
uptime
exec ./drover bench --only escalation --param "escalation.tasks=${1:-100},escalation.idle=$idle"
