#!/usr/bin/env bash
# Runs the Portkey AI Gateway (npm @portkey-ai/gateway 1.15.2) on 127.0.0.1:PORT, in the foreground, as a gateway under
# test nobody on this project wrote. Its dependencies are those of its own release lockfile (tag v1.15.2, commit
# 819ae018): package.json pins them with npm overrides, package-lock.json installs them (a plain `npm install` of
# 1.15.2 takes a newer @hono/node-server that answers every stream with a 500, Portkey-AI/gateway#1389). It installs
# them with `npm ci` into tools/portkey/node_modules on its first start.
#
# Portkey routes a request by its headers; the kit sends them with every client:
#
#   ./mvnw -pl conformance-tests -am verify -Dtest=GatewayUnderTestWireTests -Dsurefire.failIfNoSpecifiedTests=false \
#     -Dgateway.cmd="$PWD/tools/portkey/portkey.sh {port}" \
#     -Dgateway.header.x-portkey-provider=openai -Dgateway.header.x-portkey-custom-host={upstream}
#
# Needs node 18+ and npm on PATH; fails naming what is missing (exit 3).
#
# Usage: tools/portkey/portkey.sh PORT
set -euo pipefail
if [ $# -ne 1 ] || [[ ! "$1" =~ ^[0-9]+$ ]]; then
  echo "usage: $0 PORT (e.g. $0 8787)" >&2
  exit 2
fi
PORT=$1
HERE=$(cd "$(dirname "$0")" && pwd)
NODE=$(command -v node || true)
if [ -z "$NODE" ]; then
  echo "node not found on PATH: install Node.js 18 or newer (Debian: apt-get install -y nodejs npm)" >&2
  exit 3
fi
MAJOR=$("$NODE" -p 'process.versions.node.split(".")[0]')
if [ "$MAJOR" -lt 18 ]; then
  echo "node $("$NODE" --version) is too old for Portkey: install Node.js 18 or newer" >&2
  exit 3
fi
SERVER="$HERE/node_modules/@portkey-ai/gateway/build/start-server.js"
if [ ! -f "$SERVER" ]; then
  command -v npm >/dev/null || { echo "npm not found on PATH: install it to fetch Portkey (Debian: apt-get install -y npm)" >&2; exit 3; }
  echo "installing Portkey from $HERE/package-lock.json (npm ci, once)" >&2
  (cd "$HERE" && npm ci --ignore-scripts --no-audit --no-fund >&2)
fi
exec "$NODE" --import "$HERE/loopback.mjs" "$SERVER" --port="$PORT" --headless
