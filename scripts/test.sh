#!/usr/bin/env bash
# Install everything the tests need on a fresh machine, then run the whole suite.
set -euo pipefail
cd "$(dirname "$0")/.."
python3 -m pip install --quiet --disable-pip-version-check -e '.[test]'
if [ -x scripts/install-browser.sh ] || [ -f scripts/install-browser.sh ]; then
    bash scripts/install-browser.sh
fi
exec python3 -m pytest "$@"
