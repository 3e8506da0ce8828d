#!/usr/bin/env bash
# Complete passkey ceremonies per second over real HTTP, on SQLite and on PostgreSQL (see docs/benchmarks.md).
#
#   Benchmarks/http-load.sh [options]
#
#   --stores "sqlite postgres"        which stores to measure (default: both)
#   --kinds "signin registration"     which ceremonies (default: both); also stepup, a step-up sign-in with a
#                                     transaction (the peer has no step-up: it sits those runs out)
#   --concurrency "8 32"              virtual clients, one run per level (default: 8 32)
#   --duration SECONDS                measured time of each run (default 20)
#   --warmup SECONDS                  unmeasured time before it (default 5)
#   --users N                         users registered before each sign-in run (default 256)
#   --preload "0 100000"              users with one credential each loaded through the store (StoreSeed)
#                                     before each run, one set of runs per count (default 0)
#   --postgres-durable on|off         fsync and synchronous commit in the benchmark's PostgreSQL (default on)
#   --sqlite-synchronous normal|full  when SQLite's commits reach the disk (default normal, the server's default)
#   --results DIR                     keep the JSON results and server logs here (default: a temporary folder)
#   --no-build                        use the release binaries already built
#   --server PATH                     run this passkeys binary instead of the one built (to compare two versions)
#   --tag TEXT                        add "(TEXT)" to the store's name in the tables
#   --peer                            also run the Go peer (Benchmarks/Peers/go-webauthn) on the same load, beside
#                                     each SQLite run without --preload, and print both with their ratio; it
#                                     installs Debian's golang-go, golang-github-duo-labs-webauthn-dev and
#                                     golang-github-mattn-go-sqlite3-dev when missing and builds the peer offline
#   --rounds N                        measure each kind and level N times (default 1); with --peer the two servers
#                                     alternate, ours first in odd rounds and the peer first in even ones
#   --webhook none|down               none (default): no webhook endpoint; down: one endpoint subscribed to every
#                                     event at a loopback port nothing listens on, so each ceremony writes its
#                                     outbox rows and the server keeps failing and retrying their deliveries
#
# It builds `passkeys` and `CeremonyLoad` in release mode (in Benchmarks/.build), starts `passkeys serve` on
# 127.0.0.1 with a fresh SQLite file in a temporary folder, runs CeremonyLoad for each kind and concurrency
# level, stops the server, then does the same on PostgreSQL (a cluster of its own in Benchmarks/.build, made by
# scripts/postgres.sh, in a fresh schema), stops everything and prints the results as Markdown tables. With --peer,
# each SQLite run is followed (or preceded) by the same run against the peer, on a fresh SQLite file of its own.
# Every request goes to 127.0.0.1 only, and every run is bounded in time and in requests.
set -euo pipefail

here=$(cd "$(dirname "$0")" && pwd)
repo=$(cd "$here/.." && pwd)

stores="sqlite postgres"
kinds="signin registration"
levels="8 32"
duration=20
warmup=5
users=256
preloads=0
durable=on
sqlite_synchronous=normal
results=""
build=1
server_binary=""
tag=""
peer=0
rounds=1
webhook=none
while [ $# -gt 0 ]; do
    case "$1" in
        --stores) stores=$2; shift 2 ;;
        --kinds) kinds=$2; shift 2 ;;
        --concurrency) levels=$2; shift 2 ;;
        --duration) duration=$2; shift 2 ;;
        --warmup) warmup=$2; shift 2 ;;
        --users) users=$2; shift 2 ;;
        --preload) preloads=$2; shift 2 ;;
        --postgres-durable) durable=$2; shift 2 ;;
        --sqlite-synchronous) sqlite_synchronous=$2; shift 2 ;;
        --results) results=$2; shift 2 ;;
        --no-build) build=0; shift ;;
        --server) server_binary=$(cd "$(dirname "$2")" && pwd)/$(basename "$2"); shift 2 ;;
        --tag) tag=" ($2)"; shift 2 ;;
        --peer) peer=1; shift ;;
        --rounds) rounds=$2; shift 2 ;;
        --webhook) webhook=$2; shift 2 ;;
        -h | --help) sed -n '2,/^set -euo/p' "$0" | sed '$d' | sed 's/^# \{0,1\}//'; exit 0 ;;
        *) echo "http-load.sh: unknown option $1 (see --help)" >&2; exit 2 ;;
    esac
done

note() { echo "http-load.sh: $*" >&2; }

case "$rounds" in '' | *[!0-9]* | 0) note "--rounds takes a positive number"; exit 2 ;; esac
case "$webhook" in none | down) ;; *) note "--webhook takes none or down"; exit 2 ;; esac

# The peer is built from Debian's packages alone, without the Go module proxy: GOPATH mode over the sources that
# Debian's golang-*-dev packages install in /usr/share/gocode.
peer_packages="golang-go golang-github-duo-labs-webauthn-dev golang-github-mattn-go-sqlite3-dev gcc"
peer_binary=$here/.build/go-webauthn-peer
peer_label="go-webauthn peer, SQLite"

install_peer_packages() {
    local package missing=()
    for package in $peer_packages; do
        dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
    done
    if [ ${#missing[@]} = 0 ]; then return 0; fi
    local sudo=()
    if [ "$(id -u)" != 0 ]; then
        command -v sudo >/dev/null || { note "the peer needs ${missing[*]}: install them with apt-get"; exit 1; }
        sudo=(sudo)
    fi
    note "installing ${missing[*]} from Debian's archive for the peer"
    if ! DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2; then
        "${sudo[@]}" apt-get update >&2
        DEBIAN_FRONTEND=noninteractive "${sudo[@]}" apt-get install -y --no-install-recommends "${missing[@]}" >&2
    fi
}

build_peer() {
    note "building the Go peer (offline, from Debian's Go sources)"
    mkdir -p "$here/.build"
    (cd "$here/Peers/go-webauthn" &&
        GO111MODULE=off GOPATH=/usr/share/gocode GOFLAGS= GOPROXY=off GOCACHE="$here/.build/go-cache" \
            go build -trimpath -o "$peer_binary" .) >&2
}

cd "$here"
if [ "$peer" = 1 ] && [ "$build" = 1 ]; then
    install_peer_packages
    build_peer
fi
if [ "$peer" = 1 ]; then
    [ -x "$peer_binary" ] || { note "the peer is not built: run without --no-build"; exit 1; }
fi
if [ "$build" = 1 ]; then
    note "building passkeys and CeremonyLoad in release mode (the first build takes a while)"
    swift build -c release --product passkeys >&2
    swift build -c release --product CeremonyLoad >&2
    swift build -c release --product StoreSeed >&2
fi
bin=$(swift build -c release --show-bin-path)
[ -x "$bin/passkeys" ] && [ -x "$bin/CeremonyLoad" ] && [ -x "$bin/StoreSeed" ] || { note "the release binaries are missing: build without --no-build"; exit 1; }
passkeys=${server_binary:-$bin/passkeys}
[ -x "$passkeys" ] || { note "$passkeys is not an executable"; exit 1; }

work=$(mktemp -d "${TMPDIR:-/tmp}/passkeys-http-load.XXXXXX")
if [ -z "$results" ]; then results=$work/results; fi
mkdir -p "$results"
rm -f "$results/sizes.md"
server_pid=""
pg_dir=$here/.build/postgres-bench
pg_started=0
pg_schema=""

stop_server() {
    if [ -n "$server_pid" ] && kill -0 "$server_pid" 2>/dev/null; then
        kill -TERM "$server_pid"
        wait "$server_pid" 2>/dev/null || true
    fi
    server_pid=""
}

cleanup() {
    stop_server
    if [ "$pg_started" = 1 ]; then
        if [ -n "$pg_schema" ]; then psql_admin -c "DROP SCHEMA IF EXISTS $pg_schema CASCADE" >/dev/null 2>&1 || true; fi
        "$repo/scripts/postgres.sh" stop "$pg_dir" >/dev/null 2>&1 || true
    fi
    rm -rf "$work"/server.sqlite* "$work"/peer.sqlite*
    if [ "$results" != "$work/results" ]; then rm -rf "$work"; fi
}
trap cleanup EXIT
trap 'exit 130' INT TERM

api_key=bench-$(od -An -N 16 -tx1 /dev/urandom | tr -d ' \n')
# The client API's per-IP rate limit would stop one load generator on 127.0.0.1 at once: the largest values the
# server accepts (1,000,000 client requests a minute is more than 16,000 a second).
limits='"limits": { "clientRequestsPerMinute": 1000000, "failedAssertionsPerIP": 1000000, "failedAssertionsPerCredential": 10000 }'
if [ "$webhook" = down ]; then
    # Port 9 (discard) on loopback: nothing listens there, so every delivery is refused at once and retried later.
    secret=whsec_$(head -c 32 /dev/urandom | base64 | tr -d '\n')
    endpoint="{ \"name\": \"down\", \"url\": \"http://127.0.0.1:9/events\", \"secret\": \"$secret\", \"events\": [\"*\"] }"
    echo "{ $limits, \"webhooks\": { \"endpoints\": [ $endpoint ] } }" >"$work/config.json"
    tag="$tag (webhook endpoint down)"
else
    echo "{ $limits }" >"$work/config.json"
fi

free_port() {
    local port=18080
    while (exec 3<>"/dev/tcp/127.0.0.1/$port") 2>/dev/null; do port=$((port + 1)); done
    echo "$port"
}

# start_server DATABASE-URL LOG: runs passkeys serve in the background and waits for /health.
start_server() {
    port=$(free_port)
    "$passkeys" serve --port "$port" --database "$1" --api-key "$api_key" --config "$work/config.json" >"$2" 2>&1 &
    server_pid=$!
    wait_for_health "$2"
}

# start_peer LOG: runs the Go peer in the background on a new SQLite file and waits for /health.
start_peer() {
    port=$(free_port)
    rm -f "$work"/peer.sqlite*
    "$peer_binary" -port "$port" -database "$work/peer.sqlite" -api-key "$api_key" \
        -synchronous "$sqlite_synchronous" >"$1" 2>&1 &
    server_pid=$!
    wait_for_health "$1"
}

wait_for_health() {  # wait_for_health LOG
    for _ in $(seq 1 100); do
        if curl -fsS "http://127.0.0.1:$port/health" >/dev/null 2>&1; then return 0; fi
        kill -0 "$server_pid" 2>/dev/null || { tail -n 20 "$1" >&2; note "the server did not start"; exit 1; }
        sleep 0.2
    done
    note "the server did not answer /health within 20 s"
    exit 1
}

run_number=0

# fresh_database STORE: prints the URL of an empty database for the next run (a new SQLite file, or a new
# PostgreSQL schema), so that no run inherits the rows of the one before.
fresh_database() {
    case "$1" in
    sqlite)
        rm -f "$work/server.sqlite" "$work/server.sqlite-wal" "$work/server.sqlite-shm"
        echo "sqlite:$work/server.sqlite?synchronous=$sqlite_synchronous"
        ;;
    postgres)
        if [ -n "$pg_schema" ]; then psql_admin -c "DROP SCHEMA $pg_schema CASCADE" >/dev/null; fi
        pg_schema=bench_$(od -An -N 4 -tx1 /dev/urandom | tr -d ' \n')
        psql_admin -c "CREATE SCHEMA $pg_schema AUTHORIZATION passkeys" >/dev/null
        echo "$pg_url?search_path=$pg_schema"
        ;;
    esac
}

# database_size STORE: the size of the run's database, for the notes below the tables.
database_size() {
    case "$1" in
    sqlite) du -cb "$work"/server.sqlite* | tail -n 1 | awk '{ printf "%.0f MB (file and log)", $1 / 1048576 }' ;;
    peer) du -cb "$work"/peer.sqlite* | tail -n 1 | awk '{ printf "%.0f MB (file and log)", $1 / 1048576 }' ;;
    postgres)
        psql_admin -At -c "SELECT pg_size_pretty(sum(pg_total_relation_size(c.oid))) FROM pg_class c
            JOIN pg_namespace n ON n.oid = c.relnamespace WHERE n.nspname = '$pg_schema' AND c.relkind IN ('r', 'm')"
        ;;
    esac
}

# run_once SERVER STORE LABEL PRELOAD KIND LEVEL [DATABASE-PID]: one measured run, against `passkeys serve`
# (SERVER ours) on a fresh database of STORE, or against the peer (SERVER peer) on a fresh SQLite file.
run_once() {
    local server=$1 store=$2 label=$3 preload=$4 kind=$5 level=$6 database_pid=${7:-} url name run_label
    run_number=$((run_number + 1))
    if [ "$server" = peer ]; then
        name=$(printf '%02d' "$run_number")-peer-$kind-$level
        run_label=$peer_label
        start_peer "$results/$name.server.log"
    else
        name=$(printf '%02d' "$run_number")-$store-$kind-$level
        fresh_database "$store" >"$work/url"
        url=$(cat "$work/url")
        run_label=$label
        if [ "$preload" != 0 ]; then
            note "$label: loading $preload users with a credential each through the store"
            "$bin/StoreSeed" "$url" "$preload" >&2
            run_label="$label, $preload stored"
        fi
        start_server "$url" "$results/$name.server.log"
    fi
    note "$run_label, $kind, $level clients (server pid $server_pid, port $port)"
    local extra=()
    if [ -n "$database_pid" ] && [ "$server" = ours ]; then extra=(--database-pid "$database_pid"); fi
    "$bin/CeremonyLoad" run --url "http://127.0.0.1:$port" --api-key "$api_key" --kind "$kind" \
        --concurrency "$level" --duration "$duration" --warmup "$warmup" --users "$users" \
        --server-pid "$server_pid" --label "$run_label" --json "$results/$name.json" "${extra[@]}" >&2
    stop_server
    if [ "$server" = peer ]; then store=peer; fi
    echo "- $run_label, $kind, $level clients: database $(database_size "$store") after the run" >>"$results/sizes.md"
}

run_store() {  # run_store STORE LABEL [DATABASE-PID]
    local store=$1 label=$2 database_pid=${3:-} preload kind level round order server
    for preload in $preloads; do
        if [ "$peer" = 1 ] && [ "$store" = sqlite ] && [ "$preload" != 0 ]; then
            note "the peer has no StoreSeed: it runs beside the SQLite runs without --preload only"
        fi
        for kind in $kinds; do
            for level in $levels; do
                for round in $(seq 1 "$rounds"); do
                    order=ours
                    if [ "$peer" = 1 ] && [ "$store" = sqlite ] && [ "$preload" = 0 ] && [ "$kind" != stepup ]; then
                        if [ $((round % 2)) = 1 ]; then order="ours peer"; else order="peer ours"; fi
                    fi
                    for server in $order; do
                        run_once "$server" "$store" "$label" "$preload" "$kind" "$level" "$database_pid"
                    done
                done
            done
        done
    done
}

psql_admin() {
    PGPASSWORD=$(cat "$pg_dir/superuser-password") PGOPTIONS="-c client_min_messages=warning" "$psql_bin" -X -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$pg_port" \
        -U postgres -d passkeys "$@"
}

for store in $stores; do
    case "$store" in
    sqlite)
        run_store sqlite "SQLite$tag"
        ;;
    postgres)
        pg_url=$("$repo/scripts/postgres.sh" start "$pg_dir" | tail -n 1)
        pg_started=1
        pg_port=$(cat "$pg_dir/port")
        psql_bin=$(ls -d /usr/lib/postgresql/*/bin | sort -V | tail -n 1)/psql
        if [ "$durable" = on ]; then
            # scripts/postgres.sh makes a cluster for tests, without durability: the benchmark wants it as deployed.
            psql_admin -c "ALTER SYSTEM SET fsync = on" -c "ALTER SYSTEM SET synchronous_commit = on" \
                -c "ALTER SYSTEM SET full_page_writes = on" -c "SELECT pg_reload_conf()" >/dev/null
        else
            psql_admin -c "ALTER SYSTEM RESET ALL" -c "SELECT pg_reload_conf()" >/dev/null
        fi
        note "PostgreSQL: $(psql_admin -At -c "SELECT 'fsync=' || current_setting('fsync') || ', synchronous_commit=' || current_setting('synchronous_commit') || ', ' || split_part(version(), ' on ', 1)")"
        postmaster=$(ss -ltnpH "sport = :$pg_port" 2>/dev/null | grep -o 'pid=[0-9]*' | head -n 1 | cut -d= -f2 || true)
        run_store postgres "PostgreSQL$tag" "$postmaster"
        psql_admin -c "DROP SCHEMA $pg_schema CASCADE" >/dev/null
        pg_schema=""
        ;;
    *) note "unknown store $store (sqlite or postgres)"; exit 2 ;;
    esac
done

echo
echo "$(date -u +%Y-%m-%d), $(nproc) CPUs ($(lscpu 2>/dev/null | sed -n 's/^Model name: *//p' | head -n 1)), $(swift --version 2>/dev/null | head -n 1)"
echo
"$bin/CeremonyLoad" table $(ls "$results"/*.json)
echo
if [ "$peer" = 1 ]; then
    go_version=$(go version 2>/dev/null | cut -d' ' -f3)
    library_version=$(dpkg-query -W -f='${Version}' golang-github-duo-labs-webauthn-dev 2>/dev/null || true)
    echo "Beside the peer ($go_version, duo-labs/webauthn $library_version, SQLite synchronous=$sqlite_synchronous):"
    echo
    "$bin/CeremonyLoad" compare --ours "SQLite$tag" --peer "$peer_label" $(ls "$results"/*.json)
    echo
fi
cat "$results/sizes.md"
note "results and server logs: $results"
