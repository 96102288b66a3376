#!/usr/bin/env bash
# Install Debian's nginx and openssl if they are missing: the deployment test puts nginx (with a
# throwaway self-signed certificate) in front of a server, as docs/DEPLOY.md does. The test
# starts its own nginx on loopback; the package's own service is never needed. Safe to run
# more than once.
set -euo pipefail

if [ ! -x /usr/sbin/nginx ] || ! command -v openssl >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    # policy-rc.d answers 101: the package must not start its service (port 80) on install
    policy=/usr/sbin/policy-rc.d
    if [ ! -e "$policy" ]; then
        printf '#!/bin/sh\nexit 101\n' | $SUDO tee "$policy" >/dev/null
        $SUDO chmod +x "$policy"
        trap '$SUDO rm -f "$policy"' EXIT
    fi
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq --no-install-recommends nginx openssl >/dev/null
fi
