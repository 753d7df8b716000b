#!/usr/bin/env bash
# Runs nginx as a bare reverse proxy on 127.0.0.1:PORT in front of UPSTREAM, in the foreground: one worker, upstream
# connections kept alive, no buffering (SSE passes as it comes), no access log. It is no gateway: it neither parses nor
# adjudicates anything. The gateway cost bench measures it as gateway.cmd, beside the reference gateway's fronts, as a
# floor that nobody on this project wrote:
#
#   taskset -c 0 ./mvnw -B -pl bench-tests -am verify -Dtest=GatewayCostBench -Dsurefire.failIfNoSpecifiedTests=false \
#     -Dcost.gateway.prefix='taskset -c 1' -Dcost.engine.prefix='taskset -c 1' -Dcost.servers=jdk,netty-floor,cmd \
#     -Dgateway.cmd="$PWD/tools/nginx-floor/nginx-floor.sh {port} {upstream}"
#
# Needs nginx on PATH (Debian: apt-get install -y nginx-light); fails naming it (exit 3). Its configuration, pid file and
# temporary folders live in ${TMPDIR:-/tmp}/fak-nginx-floor-PORT, made anew each start.
#
# Usage: tools/nginx-floor/nginx-floor.sh PORT UPSTREAM   (UPSTREAM: http://127.0.0.1:PORT[/v1])
set -euo pipefail
if [ $# -ne 2 ]; then
  echo "usage: $0 PORT UPSTREAM (e.g. $0 8100 http://127.0.0.1:8000/v1)" >&2
  exit 2
fi
PORT=$1
UPSTREAM=$2
NGINX=$(command -v nginx || { [ -x /usr/sbin/nginx ] && echo /usr/sbin/nginx; } || true)
if [ -z "$NGINX" ]; then
  echo "nginx not found on PATH or at /usr/sbin/nginx: install it (Debian: apt-get install -y nginx-light)" >&2
  exit 3
fi
if [[ ! "$UPSTREAM" =~ ^http://(127\.0\.0\.1:[0-9]+)(/.*)?$ ]]; then
  echo "UPSTREAM must be http://127.0.0.1:PORT[/v1] (loopback only), got: $UPSTREAM" >&2
  exit 2
fi
ENGINE=${BASH_REMATCH[1]}
DIR=${TMPDIR:-/tmp}/fak-nginx-floor-$PORT
rm -rf "$DIR"
mkdir -p "$DIR/temp"
cat > "$DIR/nginx.conf" <<EOF
worker_processes 1;
error_log stderr warn;
pid $DIR/nginx.pid;
events { worker_connections 4096; }
http {
  access_log off;
  client_body_temp_path $DIR/temp/body;
  proxy_temp_path $DIR/temp/proxy;
  fastcgi_temp_path $DIR/temp/fastcgi;
  uwsgi_temp_path $DIR/temp/uwsgi;
  scgi_temp_path $DIR/temp/scgi;
  upstream engine {
    server $ENGINE;
    keepalive 256;
    keepalive_requests 1000000;
  }
  server {
    listen 127.0.0.1:$PORT;
    keepalive_requests 1000000;
    location / {
      proxy_pass http://engine;
      proxy_http_version 1.1;
      proxy_set_header Connection "";
      proxy_buffering off;
      proxy_request_buffering off;
    }
  }
}
EOF
echo "nginx floor listening on http://127.0.0.1:$PORT/v1 (upstream $UPSTREAM, $("$NGINX" -v 2>&1))"
exec "$NGINX" -p "$DIR" -c "$DIR/nginx.conf" -g 'daemon off;'
