#!/usr/bin/env bash
# Runs the kit's wire, fault and client rules against gateways nobody on this project wrote, each started and stopped by
# the harness through gateway.cmd, and writes one reading per gateway (experiments/compatibility/<folder>/: the kit's
# JUnit XML and kit-outcomes.json) and the table docs/compatibility.md from every reading there.
#
#   tools/compatibility/run.sh [portkey] [nginx]      (default: both)
#
# Portkey (tools/portkey) needs node 18+ and npm; nginx (tools/nginx-floor) Debian's nginx-light. A gateway whose
# prerequisite is missing is left out, saying so and the fix (exit 3 when none could run). Run it from the repository
# root after ./mvnw -B verify has built the kit. Another gateway: run the kit with -Dgateway.cmd=... as below, then
# CompatibilityTable reading ... and table ... (its javadoc).
set -euo pipefail
cd "$(dirname "$0")/../.."
GATEWAYS=("$@")
[ ${#GATEWAYS[@]} -eq 0 ] && GATEWAYS=(portkey nginx)
JAR=$(ls conformance-tests/target/conformance-tests-*-standalone.jar 2>/dev/null | head -1 || true)
[ -n "$JAR" ] || { echo "no conformance-tests/target/*-standalone.jar: run ./mvnw -B verify first" >&2; exit 2; }
DATE=$(date -u +%F)
COMMIT=$(git rev-parse --short HEAD)
HOST="$(nproc)-core $(. /etc/os-release && echo "$PRETTY_NAME"), load average $(cut -d' ' -f1-3 /proc/loadavg) at the start"
ran=0
for gateway in "${GATEWAYS[@]}"; do
  case "$gateway" in
    portkey)
      command -v node >/dev/null && command -v npm >/dev/null || { echo "portkey left out: node and npm are not on the PATH (install Node.js 18+)" >&2; continue; }
      NAME="Portkey $(node -p "require('./tools/portkey/package.json').dependencies['@portkey-ai/gateway']")"
      FOLDER="experiments/compatibility/portkey"
      ARGS=(-Dgateway.cmd="$PWD/tools/portkey/portkey.sh {port}" -Dgateway.header.x-portkey-provider=openai
        "-Dgateway.header.x-portkey-custom-host={upstream}") ;;
    nginx)
      NGINX=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)
      [ -n "$NGINX" ] || { echo "nginx left out: nginx is not installed (Debian: apt-get install -y nginx-light)" >&2; continue; }
      NAME="nginx $("$NGINX" -v 2>&1 | sed 's|.*nginx/||') (bare relay)"
      FOLDER="experiments/compatibility/nginx"
      ARGS=(-Dgateway.cmd="$PWD/tools/nginx-floor/nginx-floor.sh {port} {upstream}") ;;
    *) echo "unknown gateway $gateway: portkey or nginx" >&2; exit 2 ;;
  esac
  echo "== $NAME" >&2
  # the kit's own verdicts are the reading: failures are expected, so the build's exit status is not
  ./mvnw -B -q -o -pl conformance-tests -am verify -Djacoco.skip=true -Dit.test=none -Dfailsafe.failIfNoSpecifiedTests=false \
    -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true \
    -Dtest=GatewayUnderTestWireTests,GatewayUnderTestFaultTests,GatewayUnderTestClientTests "${ARGS[@]}" >&2 || true
  rm -rf "$FOLDER"
  java -cp "conformance-tests/target/classes:$JAR" dev.fakbattery.conformance.compat.CompatibilityTable reading "$FOLDER" "$NAME" \
    "$DATE" "$COMMIT" "$HOST" "${ARGS[*]}" conformance-tests/target/surefire-reports/TEST-*GatewayUnderTest*Tests.xml
  ran=$((ran + 1))
done
[ $ran -gt 0 ] || exit 3
java -cp "conformance-tests/target/classes:$JAR" dev.fakbattery.conformance.compat.CompatibilityTable table experiments/compatibility \
  docs/compatibility.md
echo "wrote docs/compatibility.md from $(ls -d experiments/compatibility/*/ | wc -l) readings" >&2
