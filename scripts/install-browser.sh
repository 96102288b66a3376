#!/usr/bin/env bash
# Install what the browser tests need: Debian's Chromium and its headless shell (never a
# downloaded browser build) and the Playwright Python package that drives them. Safe to run
# more than once.
set -euo pipefail

if [ ! -x /usr/bin/chromium ] || [ ! -x /usr/bin/chromium-headless-shell ]; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq chromium chromium-headless-shell fonts-dejavu-core >/dev/null
fi
python3 -c "import playwright" 2>/dev/null || python3 -m pip install -q "playwright>=1.40"
# Playwright must not fetch its own browsers: the tests launch these two.
/usr/bin/chromium --version 2>/dev/null || true
/usr/bin/chromium-headless-shell --version 2>/dev/null || true
