#!/usr/bin/env bash
# ./mvnw -B verify from fresh clones of HEAD, one after another, each beside two CPU burners: the build must
# stay green on a loaded machine. Usage: tools/verify-under-load/run.sh [RUNS] [BURNERS]  (defaults 5 and 2).
# Each run's log goes to $OUT/run-N.log (OUT defaults to /tmp/verify-under-load); one line per run is appended
# to $OUT/summary.tsv: run, start (UTC), commit, burners, load average at start and at end, seconds, exit status.
# The burners are killed when a run ends, however it ends. MVN_ARGS replaces the build's arguments (default
# "-B verify"); timing-classes.sh uses it to run only the timing-sensitive self-tests, with CLONE_ONCE=1 (one clone
# for all runs, so only the first compiles).
set -euo pipefail
RUNS=${1:-5}
BURNERS=${2:-2}
REPO=$(git -C "$(dirname "$0")/../.." rev-parse --show-toplevel)
OUT=${OUT:-/tmp/verify-under-load}
read -r -a MVN_ARGS <<< "${MVN_ARGS:--B verify}"
mkdir -p "$OUT"
: "${JAVA_HOME:=/usr/lib/jvm/temurin-25-jdk-amd64}"
export JAVA_HOME PATH="$JAVA_HOME/bin:$PATH"
[ -f "$OUT/summary.tsv" ] || printf 'run\tstarted_utc\tcommit\tburners\tload_start\tload_end\tseconds\texit\n' > "$OUT/summary.tsv"
fresh_clone() {
  clone=$(mktemp -d)
  git clone -q "$REPO" "$clone/repo"
}
[ "${CLONE_ONCE:-0}" = 1 ] && fresh_clone
for run in $(seq 1 "$RUNS"); do
  [ "${CLONE_ONCE:-0}" = 1 ] || fresh_clone
  COMMIT=$(git -C "$clone/repo" rev-parse --short HEAD)   # the commit this run built, even if HEAD moved meanwhile
  pids=()
  for _ in $(seq 1 "$BURNERS"); do
    sh -c 'while :; do :; done' &
    pids+=($!)
  done
  trap 'kill "${pids[@]}" 2>/dev/null || true' EXIT
  started=$(date -u +%Y-%m-%dT%H:%M:%SZ)
  load_start=$(cut -d' ' -f1 /proc/loadavg)
  t0=$(date +%s)
  set +e
  (cd "$clone/repo" && ./mvnw "${MVN_ARGS[@]}") > "$OUT/run-$run.log" 2>&1
  status=$?
  set -e
  seconds=$(( $(date +%s) - t0 ))
  load_end=$(cut -d' ' -f1 /proc/loadavg)
  kill "${pids[@]}" 2>/dev/null || true
  wait "${pids[@]}" 2>/dev/null || true
  printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$run" "$started" "$COMMIT" "$BURNERS" "$load_start" "$load_end" "$seconds" "$status" \
    | tee -a "$OUT/summary.tsv"
  grep -E 'Tests run:.*(Failures|Errors): [1-9]|FAILURE' "$OUT/run-$run.log" | head -20 || true
  [ "${CLONE_ONCE:-0}" = 1 ] || rm -rf "$clone"
done
[ "${CLONE_ONCE:-0}" = 1 ] && rm -rf "$clone"
true
