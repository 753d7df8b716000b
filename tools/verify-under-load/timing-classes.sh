#!/usr/bin/env bash
# The self-tests that time something (paced streams, held deltas, cancels, timeouts, scheduling lag), RUNS times
# (default 3) beside BURNERS CPU burners (default 2), all in one fresh clone of HEAD: run.sh with MVN_ARGS set.
# Every class runs in every run (test failures do not stop the build: the summary lists them). Usage:
# tools/verify-under-load/timing-classes.sh [RUNS] [BURNERS]; results in $OUT (default
# /tmp/verify-under-load-timing): summary.tsv and run-N.log. Listed in docs/development.md, "Verify under load".
set -euo pipefail
CLASSES=TimingTests,FaultTests,ClientLagTests,StreamTimerTests,LoadRunnerTests,ClientDisconnectTests,LimitsTests
CLASSES+=,UpstreamWatchdogTests,ConcurrentStreamsTests,BrokenTimingWireTests,FaultKitSelfTests,BrokenFaultGatewayTests
CLASSES+=,FaultRungTests,WireRungTests
export CLONE_ONCE=1
export OUT=${OUT:-/tmp/verify-under-load-timing}
export MVN_ARGS="-B -o test -pl conformance-tests -am -Dtest=$CLASSES -Dsurefire.failIfNoSpecifiedTests=false -Dmaven.test.failure.ignore=true"
exec "$(dirname "$0")/run.sh" "${1:-3}" "${2:-2}"
