#!/usr/bin/env bash
# The reference cluster on one machine, loopback only (docs/deploy/cluster.md explains each part):
#   etcd (one member)  ->  PostgreSQL 15 on CLUSTER_NODES nodes managed by Patroni, synchronous_mode on
#   HAProxy: a write port to the leader, a read port to the replicas (Patroni's REST checks), and an HTTP port
#            to CLUSTER_INSTANCES service instances (each with its job worker), which reach PostgreSQL through it.
#
#   bash scripts/cluster.sh up | down | status | start-instance N
#
# Everything lives in CLUSTER_DIR (default /tmp/pds-cluster); `down` stops every process `up` started and deletes
# the folder. `up` installs Debian's packages when they are missing (as root), builds the service unless
# CLUSTER_BUILD=0, and writes CLUSTER_DIR/cluster.json (ports, URLs, the demo key) for scripts such as the failover
# scenario. Ports are CLUSTER_PORT_BASE (default 26000) + fixed offsets. Variables the service reads (SEED_*,
# JOB_*, RATE_LIMIT_*, ...) pass through to its instances; the script sets only what the cluster needs.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
dir=${CLUSTER_DIR:-/tmp/pds-cluster}
base=${CLUSTER_PORT_BASE:-26000}
nodes=${CLUSTER_NODES:-3}
instances=${CLUSTER_INSTANCES:-3}
pg_major=${CLUSTER_PG_MAJOR:-15}
pg_bin=/usr/lib/postgresql/$pg_major/bin

etcd_port=$((base + 79)) etcd_peer=$((base + 80))
write_port=$((base + 1)) read_port=$((base + 2)) stats_port=$((base + 3)) lb_port=$((base + 100))
pg_port() { echo $((base + 32 + $1)); }       # node i: PostgreSQL
rest_port() { echo $((base + 8 + $1)); }      # node i: Patroni's REST API
app_port() { echo $((base + 101 + $1)); }     # instance i: the service

say() { printf '[cluster] %s\n' "$*" >&2; }
fail() {
  say "FAILED: $*"
  for log in "$dir"/logs/*.log; do
    [ -f "$log" ] && {
      say "--- the end of $log"
      tail -n 15 "$log" >&2
    }
  done
  exit 1
}
as_root() { [ "$(id -u)" = 0 ]; }
owner=$(as_root && echo postgres || id -un)

# Runs a program in a session of its own, as `user` (root: through setpriv, which execs, so the pid is the program's).
spawn() {
  local name=$1 user=$2
  shift 2
  local prefix=()
  if as_root && [ "$user" != root ]; then prefix=(setpriv --reuid="$user" --regid="$user" --init-groups --); fi
  (cd / && exec setsid "${prefix[@]}" "$@" </dev/null >>"$dir/logs/$name.log" 2>&1) &
  echo $! >"$dir/pids/$name.pid"
}

# Waits up to `seconds` for a command to succeed.
wait_for() {
  local seconds=$1 what=$2
  shift 2
  local deadline=$(($(date +%s) + seconds))
  until "$@" >/dev/null 2>&1; do
    [ "$(date +%s)" -lt "$deadline" ] || fail "$what: not within ${seconds} s (logs in $dir/logs)"
    sleep 0.5
  done
}

http_ok() { curl -fsS --max-time 3 -o /dev/null "$1"; }

install_packages() {
  local missing=()
  command -v patroni >/dev/null 2>&1 || missing+=(patroni)
  command -v etcd >/dev/null 2>&1 || missing+=(etcd-server)
  command -v etcdctl >/dev/null 2>&1 || missing+=(etcd-client)
  command -v haproxy >/dev/null 2>&1 || [ -x /usr/sbin/haproxy ] || missing+=(haproxy)
  [ -x "$pg_bin/postgres" ] || missing+=("postgresql-$pg_major")
  [ ${#missing[@]} -eq 0 ] && return
  as_root || fail "missing Debian packages: ${missing[*]} (apt-get install -y ${missing[*]}, as root)"
  say "installing ${missing[*]} from Debian's packages"
  export DEBIAN_FRONTEND=noninteractive
  timeout 600 apt-get update -qq
  # Their packaged services (etcd, haproxy) are not used: ours run on ports of their own from $dir.
  timeout 900 apt-get install -y -qq "${missing[@]}" >/dev/null
}

secret() { head -c 18 /dev/urandom | od -An -tx1 | tr -d ' \n'; }

patroni_config() {
  local i=$1
  cat <<YAML
scope: pds
namespace: /pds/
name: node$i
log:
  level: INFO
restapi:
  listen: 127.0.0.1:$(rest_port "$i")
  connect_address: 127.0.0.1:$(rest_port "$i")
etcd3:
  hosts: 127.0.0.1:$etcd_port
bootstrap:
  dcs:
    # A leader that stops renewing its key for ttl seconds loses it; the HA loop runs every loop_wait seconds;
    # etcd and PostgreSQL calls are retried for retry_timeout (loop_wait + 2 * retry_timeout <= ttl).
    ttl: ${PATRONI_TTL:-20}
    loop_wait: ${PATRONI_LOOP_WAIT:-2}
    retry_timeout: ${PATRONI_RETRY_TIMEOUT:-5}
    maximum_lag_on_failover: 1048576
    # A crashed primary is failed over at once rather than restarted in place.
    primary_start_timeout: 0
    # A commit is acknowledged once it is on the synchronous standby too: a failover loses no acknowledged commit.
    synchronous_mode: true
    postgresql:
      use_pg_rewind: true
      use_slots: true
      parameters:
        max_connections: 120
        shared_buffers: 32MB
        work_mem: 8MB
        maintenance_work_mem: 64MB
        wal_log_hints: 'on'
        max_wal_senders: 8
        max_replication_slots: 8
        wal_keep_size: 256MB
        hot_standby: 'on'
        jit: 'off'
        # A statement whose client is gone (an instance killed) is stopped within a second, not run to its end.
        client_connection_check_interval: 1s
  initdb:
    - encoding: UTF8
    - locale: C
    - data-checksums
postgresql:
  listen: 127.0.0.1:$(pg_port "$i")
  connect_address: 127.0.0.1:$(pg_port "$i")
  data_dir: $dir/node$i/data
  bin_dir: $pg_bin
  pgpass: $dir/node$i/pgpass
  authentication:
    superuser: { username: postgres, password: '$superuser_password' }
    replication: { username: replicator, password: '$replication_password' }
    rewind: { username: rewinder, password: '$rewind_password' }
  parameters:
    unix_socket_directories: '$dir/node$i'
  pg_hba:
    - local all all trust
    - host replication replicator 127.0.0.1/32 scram-sha-256
    - host all all 127.0.0.1/32 scram-sha-256
watchdog:
  mode: 'off'
tags: { nofailover: false, noloadbalance: false, clonefrom: false, nosync: false }
YAML
}

haproxy_config() {
  cat <<CFG
global
  maxconn 2000
  stats socket $dir/haproxy.sock mode 600 level admin

defaults
  log global
  timeout connect 2s
  timeout check 5s

# PostgreSQL: TCP, health from Patroni's REST API; a server marked down has its sessions cut, so no
# connection outlives the role it was opened for.
listen postgres_write
  bind 127.0.0.1:$write_port
  mode tcp
  timeout client 30m
  timeout server 30m
  option httpchk GET /primary
  http-check expect status 200
  default-server inter 1s fall 3 rise 1 on-marked-down shutdown-sessions
$(for i in $(seq 0 $((nodes - 1))); do echo "  server node$i 127.0.0.1:$(pg_port "$i") check port $(rest_port "$i")"; done)

listen postgres_read
  bind 127.0.0.1:$read_port
  mode tcp
  balance roundrobin
  timeout client 30m
  timeout server 30m
  option httpchk GET /replica
  http-check expect status 200
  default-server inter 1s fall 3 rise 1 on-marked-down shutdown-sessions
$(for i in $(seq 0 $((nodes - 1))); do echo "  server node$i 127.0.0.1:$(pg_port "$i") check port $(rest_port "$i")"; done)

# The service: HTTP. An instance is in while it answers /healthz at all (503 says the database is away,
# which is not the instance's fault: another instance would say the same). A request that could not reach
# an instance, or whose instance went away before answering, is sent to another when that is safe: reads,
# and POSTs that carry an Idempotency-Key (a repeat is answered from the first, never charged twice).
# What cannot be retried is answered 503 with Retry-After in the service's error shape, never 502.
listen service
  bind 127.0.0.1:$lb_port
  mode http
  balance roundrobin
  option forwardfor
  timeout client 75s
  timeout server 75s
  timeout http-keep-alive 10s
  retries 3
  option redispatch 1
  retry-on conn-failure empty-response
  http-request disable-l7-retry unless METH_GET or METH_HEAD or METH_OPTIONS or { req.hdr(idempotency-key) -m found }
  option httpchk GET /healthz
  http-check expect rstatus ^(200|503)$
  default-server inter 1s fall 2 rise 1
  errorfile 502 $dir/haproxy-errors/503.http
  errorfile 503 $dir/haproxy-errors/503.http
  errorfile 504 $dir/haproxy-errors/503.http
$(for i in $(seq 1 "$instances"); do echo "  server instance$i 127.0.0.1:$(app_port "$i") check"; done)

listen stats
  bind 127.0.0.1:$stats_port
  mode http
  stats enable
  stats uri /
CFG
}

error_page() {
  local body='{"error":{"code":"unavailable","message":"No instance of the service could answer this request; if it was sent, it may or may not have been carried out. Retry after the delay in Retry-After, with the same Idempotency-Key."}}'
  printf 'HTTP/1.1 503 Service Unavailable\r\ncontent-type: application/json\r\nretry-after: 1\r\ncache-control: no-store\r\nconnection: close\r\ncontent-length: %s\r\n\r\n%s' "${#body}" "$body"
}

# Every member running, one leader, and (with two nodes or more) a synchronous standby, as Patroni's REST API says.
cluster_ready() {
  curl -fsS --max-time 2 "http://127.0.0.1:$(rest_port 0)/cluster" | /usr/bin/python3 -c '
import json, sys
members = json.load(sys.stdin)["members"]
roles = [m["role"] for m in members]
running = all(m["state"] in ("running", "streaming") for m in members)
sys.exit(0 if running and len(members) == int(sys.argv[1]) and roles.count("leader") == 1
         and (int(sys.argv[1]) < 2 or "sync_standby" in roles) else 1)' "$nodes"
}
write_port_ready() { PGPASSWORD=$superuser_password PGCONNECT_TIMEOUT=2 psql -h 127.0.0.1 -p "$write_port" -U postgres -d postgres -Atc 'SELECT NOT pg_is_in_recovery()' | grep -q t; }

# Idempotent, so that a connection cut by a load balancer's check in the middle of it can be tried again.
create_app_database() {
  PGPASSWORD=$superuser_password PGCONNECT_TIMEOUT=3 psql -q -v ON_ERROR_STOP=1 -h 127.0.0.1 -p "$write_port" -U postgres -d postgres <<SQL
SELECT format('CREATE ROLE pds LOGIN PASSWORD %L', '$app_password') WHERE NOT EXISTS (SELECT FROM pg_roles WHERE rolname = 'pds') \gexec
SELECT 'CREATE DATABASE pds OWNER pds' WHERE NOT EXISTS (SELECT FROM pg_database WHERE datname = 'pds') \gexec
SQL
}

start_instance() {
  local i=$1
  mkdir -p "$dir/instance$i"
  # Exports are written by whichever instance runs the job and downloaded through any: they share one folder
  # (a shared volume or object storage in production).
  spawn "instance$i" "$(id -un)" env \
    DATABASE_URL="$database_url" \
    DATABASE_REPLICA_URLS="$replica_url" \
    DATA_DIR="$dir/instance$i" \
    EXPORT_DIR="$dir/exports" \
    HOST=127.0.0.1 PORT="$(app_port "$i")" \
    PUBLIC_URL="http://127.0.0.1:$lb_port" \
    DEMO_API_KEY="$demo_key" \
    RATE_LIMIT_STORE="${RATE_LIMIT_STORE:-database}" \
    DATABASE_POOL_SIZE="${DATABASE_POOL_SIZE:-6}" \
    DATABASE_CATALOG_POOL_SIZE="${DATABASE_CATALOG_POOL_SIZE:-3}" \
    DATABASE_CONNECTION_TIMEOUT_MS="${DATABASE_CONNECTION_TIMEOUT_MS:-3000}" \
    SEED_COMPANIES="${SEED_COMPANIES:-2000}" SEED_PEOPLE="${SEED_PEOPLE:-20000}" \
    LOG_LEVEL="${LOG_LEVEL:-warn}" \
    "$(command -v node)" "$repo/dist/src/main.js"
}

up() {
  [ ! -e "$dir/cluster.json" ] || fail "a cluster already runs from $dir (scripts/cluster.sh down first)"
  install_packages
  if [ "${CLUSTER_BUILD:-1}" != 0 ]; then
    say "building the service"
    (cd "$repo" && timeout 600 npm run build --silent)
  fi
  [ -f "$repo/dist/src/main.js" ] || fail "no build at $repo/dist (npm run build)"
  as_root && ! id postgres >/dev/null 2>&1 && useradd --system --user-group --home-dir /nonexistent postgres
  rm -rf "$dir"
  mkdir -p "$dir/logs" "$dir/pids" "$dir/etcd" "$dir/haproxy-errors" "$dir/exports"
  chmod 755 "$dir"
  chmod 700 "$dir/etcd" "$dir/exports" "$dir/pids"
  superuser_password=$(secret) replication_password=$(secret) rewind_password=$(secret) app_password=$(secret)
  demo_key=${DEMO_API_KEY:-pds_cluster_$(secret)}
  database_url="postgres://pds:$app_password@127.0.0.1:$write_port/pds"
  replica_url="postgres://pds:$app_password@127.0.0.1:$read_port/pds"
  # From here a failure takes down what was started.
  trap 'status=$?; if [ "$status" != 0 ]; then say "up failed: stopping what started"; down >/dev/null 2>&1 || true; fi' EXIT

  say "etcd on 127.0.0.1:$etcd_port (one member; production runs three, on three machines)"
  spawn etcd "$(id -un)" etcd --name pds-etcd0 --data-dir "$dir/etcd" \
    --listen-client-urls "http://127.0.0.1:$etcd_port" --advertise-client-urls "http://127.0.0.1:$etcd_port" \
    --listen-peer-urls "http://127.0.0.1:$etcd_peer" --initial-advertise-peer-urls "http://127.0.0.1:$etcd_peer" \
    --initial-cluster "pds-etcd0=http://127.0.0.1:$etcd_peer" --initial-cluster-state new --log-level warn
  wait_for 60 "etcd healthy" env ETCDCTL_API=3 etcdctl --endpoints "127.0.0.1:$etcd_port" --command-timeout=2s endpoint health

  for i in $(seq 0 $((nodes - 1))); do
    mkdir -p "$dir/node$i"
    patroni_config "$i" >"$dir/node$i/patroni.yml"
    chmod 700 "$dir/node$i"
    chmod 600 "$dir/node$i/patroni.yml"
    as_root && chown -R postgres:postgres "$dir/node$i"
  done
  say "PostgreSQL $pg_major on $nodes nodes under Patroni (ports $(pg_port 0)..$(pg_port $((nodes - 1))), REST $(rest_port 0)..)"
  # All at once: the first to take the initialize key in etcd bootstraps, the others clone it.
  for i in $(seq 0 $((nodes - 1))); do spawn "node$i" "$owner" patroni "$dir/node$i/patroni.yml"; done
  wait_for 300 "a leader, every replica streaming, a synchronous standby" cluster_ready

  say "HAProxy: write 127.0.0.1:$write_port, read 127.0.0.1:$read_port, service 127.0.0.1:$lb_port, stats 127.0.0.1:$stats_port"
  error_page >"$dir/haproxy-errors/503.http"
  haproxy_config >"$dir/haproxy.cfg"
  haproxy -c -q -f "$dir/haproxy.cfg" || fail "haproxy rejected $dir/haproxy.cfg"
  spawn haproxy "$(id -un)" haproxy -db -f "$dir/haproxy.cfg"
  wait_for 30 "the write port reaching the leader" write_port_ready

  wait_for 60 "the service's role and database created" create_app_database

  umask 077
  cat >"$dir/cluster.json" <<JSON
{
  "dir": "$dir",
  "serviceUrl": "http://127.0.0.1:$lb_port",
  "databaseUrl": "$database_url",
  "replicaUrl": "$replica_url",
  "superuserUrl": "postgres://postgres:$superuser_password@127.0.0.1:$write_port/postgres",
  "demoApiKey": "$demo_key",
  "statsUrl": "http://127.0.0.1:$stats_port/",
  "nodes": [$(for i in $(seq 0 $((nodes - 1))); do printf '%s{ "name": "node%s", "port": %s, "restUrl": "http://127.0.0.1:%s", "dataDir": "%s" }' "$([ "$i" = 0 ] || echo ', ')" "$i" "$(pg_port "$i")" "$(rest_port "$i")" "$dir/node$i/data"; done)],
  "instances": [$(for i in $(seq 1 "$instances"); do printf '%s{ "name": "instance%s", "url": "http://127.0.0.1:%s", "pidFile": "%s" }' "$([ "$i" = 1 ] || echo ', ')" "$i" "$(app_port "$i")" "$dir/pids/instance$i.pid"; done)]
}
JSON
  umask 022
  printf 'superuser_password=%q\nreplication_password=%q\nrewind_password=%q\napp_password=%q\ndemo_key=%q\n' \
    "$superuser_password" "$replication_password" "$rewind_password" "$app_password" "$demo_key" >"$dir/secrets.env"
  chmod 600 "$dir/secrets.env"

  # The first instance migrates and seeds; the others start once it serves.
  for i in $(seq 1 "$instances"); do
    say "service instance$i on 127.0.0.1:$(app_port "$i")"
    start_instance "$i"
    [ "$i" = 1 ] && wait_for 900 "instance1 migrated, seeded and serving" http_ok "http://127.0.0.1:$(app_port 1)/healthz"
  done
  for i in $(seq 2 "$instances"); do wait_for 120 "instance$i serving" http_ok "http://127.0.0.1:$(app_port "$i")/healthz"; done
  wait_for 30 "the load balancer serving" http_ok "http://127.0.0.1:$lb_port/healthz"
  trap - EXIT
  say "up: the service at http://127.0.0.1:$lb_port (demo key in $dir/cluster.json); scripts/cluster.sh status | down"
}

# Ends processes of ours by their recorded pids (names matched in $dir/pids), all at once: TERM, then KILL
# after `grace` seconds for any still running.
stop_pids() {
  local grace=$1 pid f
  shift
  local pids=()
  for f in "$@"; do
    [ -e "$f" ] || continue
    pid=$(cat "$f" 2>/dev/null) || continue
    kill -0 "$pid" 2>/dev/null && kill -TERM "$pid" 2>/dev/null && pids+=("$pid")
    rm -f "$f"
  done
  local deadline=$(($(date +%s) + grace))
  for pid in "${pids[@]}"; do
    while kill -0 "$pid" 2>/dev/null && [ "$(date +%s)" -lt "$deadline" ]; do sleep 0.2; done
    kill -KILL "$pid" 2>/dev/null || true
  done
}

down() {
  [ -d "$dir" ] || {
    say "nothing runs from $dir"
    return 0
  }
  stop_pids 30 "$dir"/pids/instance*.pid
  stop_pids 5 "$dir/pids/haproxy.pid"
  # Patroni stops its PostgreSQL on TERM; a postmaster left behind (Patroni killed) is stopped by its pid file.
  stop_pids 60 "$dir"/pids/node*.pid
  for data in "$dir"/node*/data; do
    local postmaster
    postmaster=$(head -n 1 "$data/postmaster.pid" 2>/dev/null || true)
    if [ -n "$postmaster" ] && kill -0 "$postmaster" 2>/dev/null && grep -qs "$data" "/proc/$postmaster/cmdline"; then
      kill -QUIT "$postmaster" 2>/dev/null || true
      sleep 1
      kill -KILL "$postmaster" 2>/dev/null || true
    fi
  done
  stop_pids 10 "$dir/pids/etcd.pid"
  stop_pids 5 "$dir"/pids/*.pid
  rm -rf "$dir"
  say "down: every process stopped, $dir deleted"
}

status() {
  [ -f "$dir/cluster.json" ] || {
    say "no cluster runs from $dir"
    return 1
  }
  say "Patroni:"
  patronictl -c "$dir/node0/patroni.yml" list 2>/dev/null || curl -fsS --max-time 3 "http://127.0.0.1:$(rest_port 0)/cluster"
  say "service instances:"
  for i in $(seq 1 "$instances"); do
    printf '  instance%s 127.0.0.1:%s  %s\n' "$i" "$(app_port "$i")" \
      "$(curl -sS --max-time 3 "http://127.0.0.1:$(app_port "$i")/healthz" 2>&1 || true)"
  done
  say "load balancer http://127.0.0.1:$lb_port/healthz: $(curl -sS --max-time 3 "http://127.0.0.1:$lb_port/healthz" 2>&1 || true)"
}

case "${1:-}" in
  up) up ;;
  down) down ;;
  status) status ;;
  start-instance)
    [ -f "$dir/secrets.env" ] || fail "no cluster runs from $dir"
    # shellcheck disable=SC1091
    . "$dir/secrets.env"
    database_url="postgres://pds:$app_password@127.0.0.1:$write_port/pds"
    replica_url="postgres://pds:$app_password@127.0.0.1:$read_port/pds"
    start_instance "${2:?which instance (1..$instances)}"
    wait_for 120 "instance$2 serving" http_ok "http://127.0.0.1:$(app_port "$2")/healthz"
    ;;
  *)
    echo "usage: $0 up | down | status | start-instance N" >&2
    exit 2
    ;;
esac
