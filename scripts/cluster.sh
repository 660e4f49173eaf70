#!/bin/sh
# The playground as a cluster on this machine (SPEC §9): a private PostgreSQL, N stateless
# `kaleidoscope serve` replicas sharing it, and HAProxy in front with health checks on
# /readyz (deploy/haproxy.cfg, with this cluster's addresses). All on loopback.
#
#   scripts/cluster.sh up [--replicas N] [--port P] [-- SERVE-OPTION...]
#                          start N replicas (default 3) behind port P (default 8400) and
#                          print the balancer's URL; options after -- go to every replica,
#                          e.g. -- --rate-limit 0
#   scripts/cluster.sh ps  one line per running replica: PID PORT
#   scripts/cluster.sh down
#                          stop everything `up` started
#
# The cluster's files (logs, the database, the balancer's configuration) live in
# $KALEIDOSCOPE_CLUSTER_DIR (default .build/cluster); the tool is $KALEIDOSCOPE_TOOL
# (default .build/release/kaleidoscope, built when missing).
set -eu
root=$(cd "$(dirname "$0")/.." && pwd)
state=${KALEIDOSCOPE_CLUSTER_DIR:-$root/.build/cluster}
tool=${KALEIDOSCOPE_TOOL:-$root/.build/release/kaleidoscope}

help() {
  sed -n '6,13p' "$0" | sed 's/^# \{0,1\}//'
}

usage() {
  help >&2
  exit 64
}

fail() {
  echo "error: cluster: $*" >&2
  exit 1
}

# initdb refuses to run as root: the database then belongs to the postgres user.
as_postgres() {
  if [ "$(id -u)" -eq 0 ]; then runuser -u postgres -- "$@"; else "$@"; fi
}

postgres_bin() {
  found=$(ls -d /usr/lib/postgresql/*/bin 2>/dev/null | sort -V | tail -n 1)
  [ -n "$found" ] || fail "PostgreSQL is not installed (scripts/install-deps.sh installs it)"
  echo "$found"
}

free_port() {
  python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'
}

# Waits for a server's log to say where it listens, and prints the port.
listening_port() {
  log=$1 pid=$2
  tries=0
  while [ $tries -lt 600 ]; do
    found=$(sed -n 's|.*listening on http://127\.0\.0\.1:\([0-9]*\)/.*|\1|p' "$log" 2>/dev/null | head -n 1)
    [ -n "$found" ] && { echo "$found"; return 0; }
    kill -0 "$pid" 2>/dev/null || { cat "$log" >&2; fail "a replica stopped while starting"; }
    tries=$((tries + 1))
    sleep 0.05
  done
  fail "a replica did not start within 30 s (its log: $log)"
}

start_postgres() {
  bin=$(postgres_bin)
  mkdir -p "$state/postgres"
  [ "$(id -u)" -eq 0 ] && chown postgres "$state/postgres"
  pg_port=$(free_port)
  as_postgres "$bin/initdb" -D "$state/postgres/data" -A trust -U ks >"$state/postgres.log" 2>&1 ||
    { cat "$state/postgres.log" >&2; fail "initdb failed"; }
  as_postgres "$bin/pg_ctl" -D "$state/postgres/data" -l "$state/postgres/server.log" -w \
    -o "-p $pg_port -k $state/postgres -c listen_addresses=127.0.0.1" start >>"$state/postgres.log" 2>&1 ||
    { cat "$state/postgres/server.log" >&2; fail "PostgreSQL did not start"; }
  as_postgres "$bin/createdb" -h 127.0.0.1 -p "$pg_port" -U ks playground >>"$state/postgres.log" 2>&1 ||
    fail "cannot create the database"
  echo "postgresql://ks@127.0.0.1:$pg_port/playground" >"$state/database"
}

# Starts replica $1 with the options after --; records `PID PORT`.
start_replica() {
  log="$state/replica$1.log"
  shift
  # setsid: the replica outlives this script and a terminal's hang-up. Without job control
  # the background job is not a group leader, so setsid execs and $! is the server's PID.
  setsid "$tool" serve --port 0 --database "$(cat "$state/database")" --trusted-proxy 127.0.0.1 "$@" \
    </dev/null >/dev/null 2>"$log" &
  pid=$!
  echo "$pid $(listening_port "$log" "$pid")" >>"$state/replicas"
}

# deploy/haproxy.cfg with this cluster's `bind` address and `server` lines.
write_balancer_configuration() {
  sed -e "s|^\( *bind \).*|\1127.0.0.1:$1|" -e '/^ *server /d' "$root/deploy/haproxy.cfg" >"$state/haproxy.cfg"
  number=0
  while read -r _ replica_port; do
    number=$((number + 1))
    echo "  server replica$number 127.0.0.1:$replica_port" >>"$state/haproxy.cfg"
  done <"$state/replicas"
  number=0
  while read -r _ replica_port; do
    number=$((number + 1))
    echo "  server replica$number-open 127.0.0.1:$replica_port backup no-check" >>"$state/haproxy.cfg"
  done <"$state/replicas"
}

up() {
  replicas=3 balancer_port=8400
  while [ $# -gt 0 ]; do
    case $1 in
      --replicas) [ $# -ge 2 ] || usage; replicas=$2; shift 2 ;;
      --port) [ $# -ge 2 ] || usage; balancer_port=$2; shift 2 ;;
      --) shift; break ;;
      *) usage ;;
    esac
  done
  case $replicas in '' | *[!0-9]* | 0) fail "--replicas takes a number from 1" ;; esac
  case $balancer_port in '' | *[!0-9]*) fail "--port takes a port number" ;; esac
  [ -e "$state/replicas" ] && fail "a cluster is already up in $state (scripts/cluster.sh down stops it)"
  command -v haproxy >/dev/null || fail "haproxy is not installed (scripts/install-deps.sh installs it)"
  if [ ! -x "$tool" ] || [ ! -x "$(dirname "$tool")/kaleidoscope-serve" ]; then
    echo "building the release tool and server (a few minutes the first time)..." >&2
    (cd "$root" && swift build -c release --product kaleidoscope && swift build -c release --product kaleidoscope-serve) >&2
  fi
  mkdir -p "$state"
  : >"$state/replicas"
  echo "starting PostgreSQL..." >&2
  start_postgres
  number=1
  while [ $number -le "$replicas" ]; do
    echo "starting replica $number of $replicas..." >&2
    start_replica $number "$@"
    number=$((number + 1))
  done
  write_balancer_configuration "$balancer_port"
  haproxy -c -q -f "$state/haproxy.cfg" || fail "the balancer's configuration is invalid: $state/haproxy.cfg"
  setsid haproxy -db -f "$state/haproxy.cfg" </dev/null >/dev/null 2>"$state/haproxy.log" &
  echo $! >"$state/haproxy.pid"
  tries=0
  until curl -sf -o /dev/null "http://127.0.0.1:$balancer_port/healthz"; do
    tries=$((tries + 1))
    [ $tries -lt 100 ] || { cat "$state/haproxy.log" >&2; down; fail "the balancer does not answer on port $balancer_port"; }
    sleep 0.1
  done
  echo "http://127.0.0.1:$balancer_port/"
}

ps_() {
  [ -e "$state/replicas" ] || return 0
  while read -r pid port; do
    if kill -0 "$pid" 2>/dev/null; then echo "$pid $port"; fi
  done <"$state/replicas"
}

# Sends SIGTERM and waits up to 15 s (the server's grace is 10 s), then SIGKILL.
stop_process() {
  pid=$1
  kill -TERM "$pid" 2>/dev/null || return 0
  tries=0
  while kill -0 "$pid" 2>/dev/null; do
    tries=$((tries + 1))
    [ $tries -lt 150 ] || { kill -KILL "$pid" 2>/dev/null || true; return 0; }
    sleep 0.1
  done
}

down() {
  [ -d "$state" ] || return 0
  [ -e "$state/haproxy.pid" ] && stop_process "$(cat "$state/haproxy.pid")"
  if [ -e "$state/replicas" ]; then
    while read -r pid _; do stop_process "$pid"; done <"$state/replicas"
  fi
  if [ -e "$state/postgres/data/postmaster.pid" ]; then
    as_postgres "$(postgres_bin)/pg_ctl" -D "$state/postgres/data" -m fast -w stop >/dev/null 2>&1 || true
  fi
  rm -rf "$state"
}

[ $# -ge 1 ] || usage
command=$1
shift
case $command in
  up) up "$@" ;;
  ps) [ $# -eq 0 ] || usage; ps_ ;;
  down) [ $# -eq 0 ] || usage; down ;;
  -h | --help) help ;;
  *) usage ;;
esac
