#!/usr/bin/env bash
# The kill -9 churn fault suite (docs/faults.md, "kill -9 of the agent during a churn of allocations"):
# AgentKillChurnTest with TRIALS kills of a real agent child JVM (default 200, the full form; the default build
# runs 20) from SEED (default: the current time in ms; printed, and named in every failure message).
# Usage: scripts/faults-kill.sh [TRIALS=200] [SEED]
set -euo pipefail
cd "$(dirname "$0")/.."
trials="${1:-200}"
seed="${2:-$(date +%s%3N)}"
echo "kill -9 churn: $trials trials, seed $seed"
uptime
# Reactor build of this checkout (never ~/.m2's io.drover artifacts); verify, since the test needs the plugin JARs.
# -DskipITs: the launcher tests' execution would otherwise run the selected test a second time.
time mvn -B -ntp -q -pl framework/cli -am verify -DskipITs -Dsurefire.failIfNoSpecifiedTests=false \
  -Dtest=AgentKillChurnTest -Ddrover.fault.trials="$trials" -Ddrover.fault.seed="$seed"
