#!/usr/bin/env bash
# Makes a throwaway PostgreSQL server available for the tests of PasskeyStorePostgres and prints its URL.
#
#   scripts/postgres.sh [start] [DIR]   install PostgreSQL if missing, create the cluster in DIR if needed,
#                                       start it, and print postgres://USER:PASSWORD@127.0.0.1:PORT/DB last
#   scripts/postgres.sh stop [DIR]      stop it (the cluster stays in DIR for the next start)
#   scripts/postgres.sh url [DIR]       print the URL of the running server, or fail
#
# DIR defaults to .build/postgres in this checkout (git ignores .build/). The server listens on 127.0.0.1
# only, on $PASSKEYS_POSTGRES_PORT (default 54329) or the next free port after it. Running it again while
# the server runs just prints the URL, so CI can call it unconditionally:
#
#   export PASSKEYS_POSTGRES_URL=$(scripts/postgres.sh | tail -n 1)
#
# The cluster is for tests: durability is switched off (fsync=off), and its passwords are random and kept
# in DIR. Root cannot run the server, so as root the cluster belongs to the `postgres` user (created by the
# Debian package); as any other user it belongs to that user.
set -euo pipefail

die() { echo "postgres.sh: $*" >&2; exit 1; }
note() { echo "postgres.sh: $*" >&2; }

command=start
case "${1:-}" in
    start | stop | url) command=$1; shift ;;
    -h | --help) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//'; exit 0 ;;
esac
[ $# -le 1 ] || die "usage: scripts/postgres.sh [start|stop|url] [DIR]"

repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${1:-$repo/.build/postgres}
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
first_port=${PASSKEYS_POSTGRES_PORT:-54329}
database=passkeys
app_user=passkeys

# One run at a time per DIR (the lock's descriptor is closed for the server, which would keep it).
if command -v flock >/dev/null; then
    exec 9>"$dir/.lock"
    flock 9
fi

# PostgreSQL's own programs, from the newest installed version; installed from Debian when missing.
find_bin() {
    local bin
    bin=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
    [ -n "$bin" ] && [ -x "$bin/initdb" ] && [ -x "$bin/pg_ctl" ] && [ -x "$bin/psql" ] && echo "$bin"
}
bin=$(find_bin || true)
if [ -z "$bin" ]; then
    [ "$command" = start ] || die "PostgreSQL is not installed, so no server is running."
    [ "$(id -u)" = 0 ] || die "PostgreSQL is not installed: run as root, or install Debian's postgresql package."
    note "installing Debian's postgresql package"
    export DEBIAN_FRONTEND=noninteractive
    apt-get update -q >&2
    apt-get install -y -q postgresql >&2
    bin=$(find_bin) || die "postgresql was installed, but no /usr/lib/postgresql/*/bin/initdb was found."
fi

# Who runs the server: root may not, so root hands the cluster to the `postgres` user.
if [ "$(id -u)" = 0 ]; then
    server_user=postgres
    id -u "$server_user" >/dev/null 2>&1 \
        || useradd --system --user-group --no-create-home --shell /usr/sbin/nologin "$server_user"
    as_server() { (cd / && runuser -u "$server_user" -- "$@") 9>&-; }
else
    server_user=$(id -un)
    as_server() { (cd / && "$@") 9>&-; }
fi

# The cluster lives in DIR/cluster unless the server user cannot reach DIR (a checkout under a private home
# directory, say); then it lives in a private directory under /tmp named after DIR.
cluster=$dir/cluster
if [ "$(id -u)" = 0 ] && ! as_server test -x "$dir"; then
    cluster=${TMPDIR:-/tmp}/swift-passkeys-postgres-$(printf '%s' "$dir" | cksum | cut -d ' ' -f 1)
    note "the $server_user user cannot reach $dir; the cluster lives in $cluster"
fi
data=$cluster/data

secret() {
    local file=$dir/$1
    if [ ! -s "$file" ]; then
        (umask 077 && od -An -N 16 -tx1 /dev/urandom | tr -d ' \n' >"$file")
    fi
    cat "$file"
}
admin_password=$(secret superuser-password)
app_password=$(secret password)

is_running() { [ -f "$data/PG_VERSION" ] && as_server "$bin/pg_ctl" -D "$data" status >/dev/null 2>&1; }
port_in_use() { (exec 3<>"/dev/tcp/127.0.0.1/$1") 2>/dev/null; }
url() { echo "postgres://$app_user:$app_password@127.0.0.1:$(cat "$dir/port")/$database"; }

case "$command" in
stop)
    if is_running; then
        as_server "$bin/pg_ctl" -D "$data" -m fast -w stop >&2
    else
        note "no server is running for $dir"
    fi
    exit 0
    ;;
url)
    is_running || die "no server is running for $dir: run scripts/postgres.sh first."
    url
    exit 0
    ;;
esac

if is_running; then
    url
    exit 0
fi

if [ ! -f "$data/PG_VERSION" ]; then
    note "creating a cluster in $data with $bin/initdb"
    rm -rf "$data"
    mkdir -p "$cluster"
    chmod 700 "$cluster"
    (umask 077 && printf '%s\n' "$admin_password" >"$cluster/pwfile")
    if [ "$(id -u)" = 0 ]; then chown -R "$server_user:" "$cluster"; fi
    as_server "$bin/initdb" -D "$data" -U postgres --pwfile="$cluster/pwfile" --auth=scram-sha-256 \
        --encoding=UTF8 --locale=C.UTF-8 >"$dir/initdb.log" 2>&1 \
        || { cat "$dir/initdb.log" >&2; die "initdb failed (its output is above)."; }
    rm -f "$cluster/pwfile"
    cat >>"$data/postgresql.conf" <<'EOF'

# Written by scripts/postgres.sh: a throwaway cluster for tests, reached over TCP on 127.0.0.1 only.
listen_addresses = '127.0.0.1'
unix_socket_directories = ''
max_connections = 300
fsync = off
synchronous_commit = off
full_page_writes = off
EOF
fi

port=$first_port
while :; do
    while port_in_use "$port"; do
        port=$((port + 1))
        [ "$port" -lt $((first_port + 100)) ] || die "no free port in $first_port-$((port - 1)) on 127.0.0.1."
    done
    [ "$port" = "$first_port" ] || note "port $first_port is in use; using $port"
    echo "$port" >"$dir/port"
    note "starting PostgreSQL on 127.0.0.1:$port"
    if as_server "$bin/pg_ctl" -D "$data" -l "$cluster/server.log" -o "-p $port" -w -t 60 start >&2; then break; fi
    # A port nothing listens on can still be taken, by the local end of an outgoing connection (the probe above
    # cannot tell; the ports lie in Linux's ephemeral range): try the next one.
    if tail -n 5 "$cluster/server.log" | grep -q "could not bind"; then
        port=$((port + 1))
        [ "$port" -lt $((first_port + 100)) ] || die "no free port in $first_port-$((port - 1)) on 127.0.0.1."
        continue
    fi
    tail -n 30 "$cluster/server.log" >&2 || true
    die "the server did not start (the end of its log is above)."
done

# The tests' user and database, created once; the password is set on every start so it matches DIR.
PGPASSWORD=$admin_password "$bin/psql" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$port" -U postgres -d postgres \
    -v app_user="$app_user" -v app_password="$app_password" -v database="$database" >&2 <<'EOF'
SELECT format('CREATE ROLE %I LOGIN', :'app_user')
WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = :'app_user') \gexec
ALTER ROLE :"app_user" PASSWORD :'app_password';
SELECT format('CREATE DATABASE %I OWNER %I', :'database', :'app_user')
WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = :'database') \gexec
EOF

url
