#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run the whole suite. Arguments go to
# pytest; with --fast first (the edit-test loop) nothing is installed, no PostgreSQL cluster is
# started (its tests are skipped unless LUDOTHEK_TEST_POSTGRES names one) and the kernels are not
# compiled ahead: the tests start at once.
set -euo pipefail
cd "$(dirname "$0")/.."
fast=
if [ "${1:-}" = "--fast" ]; then
    fast=1
    shift
fi
# The suite starts a few hundred Python processes (servers, command-line runs, workers). Where
# the environment sets PYTHONDONTWRITEBYTECODE, each would compile Ludothek's sources again
# (about 0.3 CPU s apiece; they are compiled once below), and pytest would rewrite the test
# files' assertions afresh on every run.
unset PYTHONDONTWRITEBYTECODE
warming=

set_up() {
    python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
    # The fifth game under tests/plugin is registered by the tests for their own processes
    # (tests/plugin_registration.py); earlier versions of this script installed it for good.
    if python3 -m pip show --quiet ludothek-wettlauf >/dev/null 2>&1; then
        python3 -m pip uninstall --quiet --yes ludothek-wettlauf
    fi
    python3 -m compileall -q -j 0 ludothek
    # every game's kernels compiled once, by processes sharing the work, while the packages below
    # are installed (which mostly waits on the network and the disk) and the tests start: a test
    # process wanting a kernel being compiled waits for it and loads it (ludothek/core/njit.py), so
    # a fresh clone's cold kernel cache is not compiled by each test process at the same time, and
    # the tests fill the cores the warm-up leaves idle between its steps
    python3 -m ludothek.cli warm &
    warming=$!
    trap 'kill "$warming" 2>/dev/null || true' EXIT
    if [ -x scripts/install-browser.sh ] || [ -f scripts/install-browser.sh ]; then
        bash scripts/install-browser.sh
    fi
    # axe-core for the accessibility tests (pinned in tests/axe/package-lock.json)
    if ! command -v npm >/dev/null; then
        apt-get install -y --no-install-recommends npm >/dev/null
    fi
    npm ci --prefix tests/axe --no-audit --no-fund --loglevel=error
    # a throwaway PostgreSQL cluster for the PostgreSQL tests (unless one is given)
    bash scripts/install-postgres.sh
    # nginx and openssl for the deployment test (docs/DEPLOY.md's nginx configuration, run for real)
    bash scripts/install-nginx.sh
    if [ -z "${LUDOTHEK_TEST_POSTGRES:-}" ]; then
        pg_dir=$(mktemp -d)
        trap 'kill "$warming" 2>/dev/null || true; bash scripts/postgres-cluster.sh stop "$pg_dir"' EXIT
        trap 'exit 130' INT
        trap 'exit 143' TERM
        LUDOTHEK_TEST_POSTGRES=$(bash scripts/postgres-cluster.sh start "$pg_dir")
        export LUDOTHEK_TEST_POSTGRES
    fi
}

if [ -z "$fast" ]; then
    set_up
fi
# several test processes (each file in one of them, so a module's server and browser are started
# once): the suite waits on servers and browsers more than it computes. LUDOTHEK_TEST_WORKERS=0
# runs it in this process alone.
workers=${LUDOTHEK_TEST_WORKERS:-3}
parallel=()
if [ "$workers" != 0 ]; then
    parallel=(-n "$workers" --dist loadfile)
fi
# the full run lists its slowest tests, so that CI's log shows where the suite's time goes
report=()
if [ -z "$fast" ]; then
    report=(--durations=25)
fi
status=0
python3 -m pytest "${parallel[@]}" "${report[@]}" "$@" || status=$?  # not exec: the EXIT trap must still stop the cluster
if [ -n "$warming" ]; then
    warm_status=0
    wait "$warming" || warm_status=$?
    warming=  # (its process id may be another's by the time the script ends)
    if [ "$warm_status" != 0 ]; then
        echo "ludothek warm failed (exit status $warm_status)" >&2
        [ "$status" != 0 ] || status=$warm_status
    fi
fi
exit "$status"
