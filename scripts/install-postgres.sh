#!/usr/bin/env bash
# Install Debian's PostgreSQL server if it is missing (the tests start their own throwaway
# cluster with scripts/postgres-cluster.sh). Safe to run more than once.
set -euo pipefail

if ! ls /usr/lib/postgresql/*/bin/initdb >/dev/null 2>&1; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    # the tests never use the package's own "main" cluster: don't create (and start) one
    $SUDO mkdir -p /etc/postgresql-common/createcluster.d
    echo "create_main_cluster = false" | $SUDO tee /etc/postgresql-common/createcluster.d/ludothek.conf >/dev/null
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql >/dev/null
fi
# pg_dump and pg_restore (ludothek backup/restore on PostgreSQL, tests/test_backup*.py)
if ! command -v pg_dump >/dev/null || ! command -v pg_restore >/dev/null; then
    if [ "$(id -u)" -ne 0 ]; then SUDO=sudo; else SUDO=; fi
    $SUDO apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $SUDO apt-get install -y -qq postgresql-client >/dev/null
fi
