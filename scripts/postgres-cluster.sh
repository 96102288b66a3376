#!/usr/bin/env bash
# A throwaway PostgreSQL cluster for the tests.
#   postgres-cluster.sh start DIR   initdb into DIR, start it, print its SQLAlchemy URL
#   postgres-cluster.sh stop DIR    stop it and delete DIR
# The server listens only on a Unix socket in DIR; the calling user is its superuser and
# connects without a password. Durability is off (fsync=off): never keep data in it.
set -euo pipefail

usage() { echo "usage: $0 start|stop DIR" >&2; exit 2; }
[ $# -eq 2 ] || usage
command=$1
dir=$(realpath -m "$2")

bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
if [ -z "$bin" ] || [ ! -x "$bin/initdb" ]; then
    echo "$0: PostgreSQL is not installed (run scripts/install-postgres.sh)" >&2
    exit 1
fi
me=$(id -un)

# initdb and postgres refuse to run as root: then the server runs as the postgres OS user
as_server() {
    if [ "$(id -u)" -eq 0 ]; then (cd / && runuser -u postgres -- "$@"); else "$@"; fi
}

case "$command" in
start)
    # "stop" deletes DIR, so it must be new or empty (mktemp -d)
    if [ -e "$dir" ] && [ -n "$(ls -A "$dir")" ]; then
        echo "$0: $dir is not empty" >&2
        exit 1
    fi
    mkdir -p "$dir"
    touch "$dir/.ludothek-cluster"  # lets "stop" clean up after a failed start too
    if [ "$(id -u)" -eq 0 ]; then chown postgres: "$dir"; fi
    chmod 700 "$dir"
    as_server "$bin/initdb" --pgdata="$dir/data" --username="$me" --auth=trust \
        --encoding=UTF8 --locale=C.UTF-8 --no-sync >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; exit 1; }
    cat >>"$dir/data/postgresql.conf" <<CONF
listen_addresses = ''
unix_socket_directories = '$dir'
unix_socket_permissions = 0777
fsync = off
synchronous_commit = off
full_page_writes = off
max_connections = 200
shared_buffers = 32MB
CONF
    as_server "$bin/pg_ctl" --pgdata="$dir/data" --log="$dir/server.log" --wait --silent start \
        || { cat "$dir/server.log" >&2; exit 1; }
    # root can reach the socket in a directory owned by postgres (root ignores permissions)
    "$bin/psql" --quiet --no-psqlrc --host="$dir" --username="$me" --dbname=postgres \
        --command="CREATE DATABASE ludothek" >/dev/null
    echo "postgresql+psycopg://$me@/ludothek?host=$dir"
    ;;
stop)
    # only ever delete a directory that "start" made
    if [ -e "$dir/.ludothek-cluster" ]; then
        if [ -e "$dir/data/postmaster.pid" ]; then
            as_server "$bin/pg_ctl" --pgdata="$dir/data" --mode=immediate --wait --silent stop >/dev/null 2>&1 || true
        fi
        rm -rf "$dir"
    elif [ -e "$dir" ]; then
        echo "$0: $dir was not made by $0 start; left alone" >&2
        exit 1
    fi
    ;;
*)
    usage
    ;;
esac
