#!/usr/bin/env bash
# Measures what a gateway costs on a real engine: the tax witness and the concurrency sweep (bench-tests'
# TaxRungTests#taxWitness and #concurrencySweep) under -Pllamacpp, llama.cpp's llama-server on the CPU with the tiny
# random-weight model, once per gateway, each started and stopped by the harness through gateway.cmd, one after the
# other with the same settings. Each gateway's artifacts (the witness's and the sweep's JSON and whatever else of theirs
# the run wrote) are copied to experiments/gateway-tax-llamacpp/<gateway>/, with the command, the load averages before
# and after and the Maven log's tail (run.txt).
#
#   tools/compatibility/tax.sh [reference] [nginx] [portkey]      (default: all three, in that order)
#
# reference: the reference gateway jar (the profile's own gateway.cmd; build it first with
# ./mvnw -B -q -o -pl reference-gateway -am package -DskipTests); nginx: tools/nginx-floor, a bare relay that parses
# nothing (Debian's nginx-light); portkey: tools/portkey (node 18+ and npm; routed by its x-portkey-* headers). A gateway
# whose prerequisite is missing is left out, saying so and the fix (exit 3 when none could run). Every gateway's command
# gets the same prefix (GATEWAY_PREFIX, the profile's `nice -n 10`).
#
# Settings, the same for every gateway (unset: the -Pllamacpp defaults, docs/configuration.md):
#   TAX_COUNT, TAX_WARMUP, SWEEP_REQUESTS, SWEEP_NOISE_REQUESTS, SWEEP_CONCURRENCY   -> tax.count, tax.warmup, ...
#   PIN=auto|yes|no      yes: Maven (client, gateway) on core 0, llama-server on core 1 (docs/llamacpp.md); auto: yes
#                        on a 2-core machine
#   TESTS                the TaxRungTests methods to run (default taxWitness+concurrencySweep; taxWitness alone: the witness)
#   LLAMACPP_SERVER      llama-server's path (unset: the profile finds or builds it)
#   GATEWAY_PREFIX       words before every gateway's command (default `nice -n 10`)
#   OUT                  the readings' folder (default experiments/gateway-tax-llamacpp)
set -euo pipefail
cd "$(dirname "$0")/../.."
GATEWAYS=("$@")
[ ${#GATEWAYS[@]} -eq 0 ] && GATEWAYS=(reference nginx portkey)
OUT=${OUT:-experiments/gateway-tax-llamacpp}
GATEWAY_PREFIX=${GATEWAY_PREFIX:-nice -n 10}
PIN=${PIN:-auto}
[ "$PIN" = auto ] && { [ "$(nproc)" -eq 2 ] && PIN=yes || PIN=no; }
SETTINGS=()
[ -n "${TAX_COUNT:-}" ] && SETTINGS+=(-Dtax.count="$TAX_COUNT")
[ -n "${TAX_WARMUP:-}" ] && SETTINGS+=(-Dtax.warmup="$TAX_WARMUP")
[ -n "${SWEEP_REQUESTS:-}" ] && SETTINGS+=(-Dsweep.requests="$SWEEP_REQUESTS")
[ -n "${SWEEP_NOISE_REQUESTS:-}" ] && SETTINGS+=(-Dsweep.noise.requests="$SWEEP_NOISE_REQUESTS")
[ -n "${SWEEP_CONCURRENCY:-}" ] && SETTINGS+=(-Dsweep.concurrency="$SWEEP_CONCURRENCY")
[ -n "${LLAMACPP_SERVER:-}" ] && SETTINGS+=(-Dllamacpp.server="$LLAMACPP_SERVER")
PREFIX=()
if [ "$PIN" = yes ]; then
  command -v taskset >/dev/null || { echo "PIN=yes needs taskset (Debian: util-linux)" >&2; exit 2; }
  PREFIX=(taskset -c 0)
  SETTINGS+=("-Dllamacpp.engine.prefix=taskset -c 1")
fi
DATE=$(date -u +%FT%TZ)
COMMIT=$(git rev-parse --short HEAD)
ran=0
for gateway in "${GATEWAYS[@]}"; do
  case "$gateway" in
    reference)
      [ -f reference-gateway/target/reference-gateway.jar ] || { echo "reference left out: no reference-gateway/target/reference-gateway.jar (./mvnw -B -q -o -pl reference-gateway -am package -DskipTests)" >&2; continue; }
      NAME="reference gateway $(git describe --always --dirty) (jdk front)"
      # the profile's own gateway.cmd, its prefix set like the others'
      ARGS=("-Dllamacpp.gateway.prefix=$GATEWAY_PREFIX") ;;
    nginx)
      NGINX=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)
      [ -n "$NGINX" ] || { echo "nginx left out: nginx is not installed (Debian: apt-get install -y nginx-light)" >&2; continue; }
      NAME="nginx $("$NGINX" -v 2>&1 | sed 's|.*nginx/||') (bare relay)"
      ARGS=("-Dgateway.cmd=$GATEWAY_PREFIX $PWD/tools/nginx-floor/nginx-floor.sh {port} {upstream}") ;;
    portkey)
      command -v node >/dev/null && command -v npm >/dev/null || { echo "portkey left out: node and npm are not on the PATH (install Node.js 18+)" >&2; continue; }
      NAME="Portkey $(node -p "require('./tools/portkey/package.json').dependencies['@portkey-ai/gateway']"), node $(node --version)"
      ARGS=("-Dgateway.cmd=$GATEWAY_PREFIX $PWD/tools/portkey/portkey.sh {port}" -Dgateway.header.x-portkey-provider=openai
        "-Dgateway.header.x-portkey-custom-host={upstream}") ;;
    *) echo "unknown gateway $gateway: reference, nginx or portkey" >&2; exit 2 ;;
  esac
  FOLDER="$OUT/$gateway"
  rm -rf "$FOLDER"
  mkdir -p "$FOLDER"
  CMD=("${PREFIX[@]}" ./mvnw -B -o -pl bench-tests -am verify -Pllamacpp -Djacoco.skip=true
    "-Dtest=TaxRungTests#${TESTS:-taxWitness+concurrencySweep}" -Dsurefire.failIfNoSpecifiedTests=false -Dit.test=none
    -Dfailsafe.failIfNoSpecifiedTests=false "${SETTINGS[@]}" "${ARGS[@]}")
  echo "== $NAME" >&2
  {
    echo "gateway: $NAME"
    echo "sitting started: $DATE, commit $COMMIT"
    echo "host: $(nproc) cores, $(. /etc/os-release && echo "$PRETTY_NAME"), $(uname -sr)"
    echo "command: $(printf '%q ' "${CMD[@]}")"
    echo "start: $(date -u +%FT%TZ), load average $(cat /proc/loadavg)"
  } > "$FOLDER/run.txt"
  start=$(date +%s)
  # the artifacts' verdicts are the reading: the build's exit status is recorded, not obeyed
  status=0
  "${CMD[@]}" > "$FOLDER/maven.log" 2>&1 || status=$?
  {
    echo "end: $(date -u +%FT%TZ), load average $(cat /proc/loadavg)"
    echo "took: $(($(date +%s) - start)) s, Maven exit status $status"
  } >> "$FOLDER/run.txt"
  found=0
  while IFS= read -r -d '' f; do
    cp "$f" "$FOLDER/"
    found=$((found + 1))
  done < <(find experiments/llamacpp -type f \( -name 'adjudication-tax-witness*' -o -name 'concurrency-sweep*' \) -print0 2>/dev/null)
  [ $found -gt 0 ] || echo "no witness or sweep artifact in experiments/llamacpp for $gateway: see $FOLDER/maven.log" >&2
  # the log stays out of git when long: the tail says what the run did
  tail -n 200 "$FOLDER/maven.log" > "$FOLDER/maven-tail.log"
  rm -f "$FOLDER/maven.log"
  cat "$FOLDER/run.txt" >&2
  ran=$((ran + 1))
done
[ $ran -gt 0 ] || exit 3
