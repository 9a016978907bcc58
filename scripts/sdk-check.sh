#!/usr/bin/env bash
# Proves the driver SDK from the outside, as a third party uses it (run by .ci/run after the reactor's verify):
#   1. installs the SDK (mvn -B install -DskipTests) into a private Maven repository (never ~/.m2);
#   2. builds examples/http-probe-driver, outside the reactor, against it: its TCK runs;
#   3. makes a project with `drover plugin init sleep` and builds it offline against the same repository;
#   4. drops both JARs into a plugin_dir and runs their sample jobs with `drover run -config` (the probe against
#      a local HTTP server on a free loopback port); both must succeed.
# Exit code: 0 when all of it passed, else the first failure's. Every process it starts is stopped on exit.
#   DROVER_SDK_REPO  the private repository (default target/sdk-m2; reused, so a second run is offline-fast)
set -euo pipefail
cd "$(dirname "$0")/.."
ROOT="$PWD"
REPO="${DROVER_SDK_REPO:-$ROOT/target/sdk-m2}"
WORK="$(mktemp -d)"
SERVER=""
cleanup() {
  if [ -n "$SERVER" ]; then kill "$SERVER" 2>/dev/null || true; wait "$SERVER" 2>/dev/null || true; fi
  rm -rf "$WORK"
}
trap cleanup EXIT

step() { printf '\n== sdk-check: %s\n' "$*"; }

step "install the SDK into $REPO"
# Only the SDK's modules (and what they need): what a plugin build resolves. The README's whole-tree
# `mvn -B install -DskipTests` installs the same artifacts plus the rest, at several times the cost on an empty
# repository (every module's dependencies downloaded again).
mvn -B -ntp -q install -DskipTests -Dmaven.repo.local="$REPO" -pl drivers/api,drivers/tck,sdk/bom,sdk/driver-parent -am

step "build examples/http-probe-driver against it (its TCK runs)"
(cd examples/http-probe-driver && mvn -B -ntp -q verify -Dmaven.repo.local="$REPO")

step "drover plugin init sleep, then build it offline"
DROVER_BUILD=0 ./drover plugin init sleep "$WORK/sleep-driver"
(cd "$WORK/sleep-driver" && mvn -B -ntp -q -o verify -Dmaven.repo.local="$REPO")

step "drop both JARs into a plugin_dir and run their jobs with drover run -config"
install -d -m 700 "$WORK/plugins"
cp examples/http-probe-driver/target/http-probe-driver-1.0.0.jar "$WORK/sleep-driver/target/sleep-driver-0.1.0.jar" \
  "$WORK/plugins/"
printf 'data_dir   = "%s"\nplugin_dir = "%s"\n' "$WORK/data" "$WORK/plugins" > "$WORK/agent.hcl"
DROVER_BUILD=0 ./drover run -config "$WORK/agent.hcl" "$WORK/sleep-driver/jobs/sleep.hcl" > "$WORK/sleep.out"

PORT="$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')"
mkdir -p "$WORK/www"
python3 -m http.server --bind 127.0.0.1 --directory "$WORK/www" "$PORT" > "$WORK/www.log" 2>&1 &
SERVER=$!
for _ in $(seq 100); do
  python3 -c "import urllib.request; urllib.request.urlopen('http://127.0.0.1:$PORT/')" 2>/dev/null && break
  sleep 0.1
done
sed "s#PROBE_URL#http://127.0.0.1:$PORT/#" examples/http-probe-driver/jobs/http-probe.hcl > "$WORK/http-probe.hcl"
DROVER_BUILD=0 ./drover run -config "$WORK/agent.hcl" "$WORK/http-probe.hcl" > "$WORK/probe.out"
grep -q "3 good probe(s)" "$WORK/probe.out" || { cat "$WORK/probe.out"; echo "sdk-check: the probe job did not report its probes" >&2; exit 1; }

step "passed"
