#!/usr/bin/env bash
# A newcomer's start, as README's "Two commands" say, from a clone in a folder no other user can enter
# (mktemp -d, 0700): `npm ci && npm start`, then /healthz, a search with the printed demo key, Ctrl-C,
# and a second start that keeps the data and the key.
#   bash scripts/private-folder-start.sh [root|user]...     (default: root and user when run as root, else user)
# `root` runs it as root (the embedded PostgreSQL then runs as the postgres user, apart from the folder);
# `user` as an ordinary user, pds-newcomer, created when missing (needs root), or as yourself when not root.
# Clones this checkout's HEAD, so commit first.
set -euo pipefail
repo=$(cd "$(dirname "$0")/.." && pwd)
newcomer=pds-newcomer
as_root=$([ "$(id -u)" = 0 ] && echo yes || echo no)
if [ $# -gt 0 ]; then kinds=("$@"); elif [ "$as_root" = yes ]; then kinds=(root user); else kinds=(user); fi

service_pid=
# A failed check must not leave a service running behind it.
trap '[ -n "$service_pid" ] && kill -INT "$service_pid" 2>/dev/null; true' EXIT
say() { printf '[private-folder-start] %s\n' "$*"; }
fail() { say "FAILED: $*"; [ -n "${log:-}" ] && [ -f "$log" ] && tail -n 40 "$log"; exit 1; }
free_port() { node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})"; }

# Runs a command as the user of this round, in its clone, with a login-like environment.
run_as() {
  if [ "$who" = "$(id -un)" ]; then (cd "$clone" && env "$@"); else
    runuser -u "$who" -- env -i PATH="$PATH" HOME="$home" LANG=C.UTF-8 bash -c 'cd "$0" && exec env "$@"' "$clone" "$@"
  fi
}

# Every request has a time limit, and every wait a deadline: a service that never answers fails the run, never hangs it.
http() { curl --connect-timeout 5 --max-time 30 "$@"; }
deadline_of() { echo $(( $(date +%s) + $1 )); }
before() { [ "$(date +%s)" -lt "$1" ]; }

start_service() {
  log=$1
  port=$(free_port)
  # A session of its own (setsid), so that Ctrl-C can be imitated by signalling its process group.
  run_as PORT="$port" SEED_COMPANIES=2000 SEED_PEOPLE=20000 LOG_LEVEL=info setsid --wait npm start >"$log" 2>&1 &
  started_pid=$!
  local limit
  limit=$(deadline_of 300)
  until http -fsS --max-time 5 "http://127.0.0.1:$port/healthz" >/dev/null 2>&1; do
    kill -0 "$started_pid" 2>/dev/null || fail "npm start exited before answering /healthz"
    before "$limit" || fail "/healthz did not answer 200 within 300 s of npm start"
    sleep 0.5
  done
  [ "$(http -fsS "http://127.0.0.1:$port/healthz")" = '{"status":"ok"}' ] || fail "/healthz did not answer ok on port $port"
  limit=$(deadline_of 10)
  until grep -q 'Demo API key' "$log"; do
    before "$limit" || fail "no 'Demo API key' line within 10 s of /healthz answering"
    sleep 0.1
  done
  service_pid=$(cat "$clone/data/postgres.owner")
}

stop_service() {
  group=$(ps -o pgid= -p "$service_pid" | tr -d ' ')
  [ -n "$group" ] && [ "$group" != "$(ps -o pgid= -p $$ | tr -d ' ')" ] || fail "the service has no process group of its own"
  kill -INT -- "-$group" # what Ctrl-C in a terminal sends to npm, its shell and node
  local limit
  limit=$(deadline_of 60)
  while kill -0 "$started_pid" 2>/dev/null; do
    before "$limit" || { kill -KILL -- "-$group" 2>/dev/null; fail "npm start still ran 60 s after Ctrl-C"; }
    sleep 0.2
  done
  wait "$started_pid" || true
  ! kill -0 "$service_pid" 2>/dev/null || fail "the service ($service_pid) still runs after Ctrl-C"
  service_pid=
  grep -q '"msg":"embedded PostgreSQL stopped"' "$log" || fail "the service did not stop its embedded PostgreSQL"
  postmaster=$(head -n 1 "$database_dir/postmaster.pid" 2>/dev/null || true)
  [ -z "$postmaster" ] || ! kill -0 "$postmaster" 2>/dev/null || fail "the embedded PostgreSQL ($postmaster) still runs after the stop"
}

for kind in "${kinds[@]}"; do
  started=$(date +%s)
  if [ "$kind" = root ]; then
    [ "$as_root" = yes ] || { say "skipping root: not running as root"; continue; }
    who=root home=$HOME
    folder=$(mktemp -d)
  elif [ "$as_root" = yes ]; then
    id "$newcomer" >/dev/null 2>&1 || useradd --create-home --shell /bin/bash "$newcomer"
    who=$newcomer home=$(getent passwd "$newcomer" | cut -d: -f6)
    folder=$(runuser -u "$newcomer" -- mktemp -d)
  else
    who=$(id -un) home=$HOME
    folder=$(mktemp -d)
  fi
  [ "$(stat -c %a "$folder")" = 700 ] || fail "$folder is not private"
  clone=$folder/prospecting
  say "$kind: cloning into $clone (a folder only $who can enter), then npm ci"
  git clone -q "$repo" "$clone"
  [ "$who" = "$(id -un)" ] || chown -R "$who:" "$clone"
  run_as npm ci --no-audit --no-fund >"$folder/npm-ci.log" 2>&1 || { log=$folder/npm-ci.log; fail "npm ci"; }

  say "$kind: npm start"
  start_service "$folder/start-1.log"
  key=$(grep -o 'Demo API key pds_[A-Za-z0-9_-]*' "$log" | awk '{ print $4 }')
  [ -n "$key" ] || fail "no demo key printed"
  database_dir=$(grep -o '"databaseDir":"[^"]*","msg":"embedded PostgreSQL started"' "$log" | head -n 1 | cut -d'"' -f4)
  [ -n "$database_dir" ] || fail "the embedded PostgreSQL's folder is not in the log"
  postmaster=$(head -n 1 "$database_dir/postmaster.pid")
  server_user=$(ps -o user= -p "$postmaster" | tr -d ' ')
  expected_user=$([ "$who" = root ] && echo postgres || echo "$who")
  [ "$server_user" = "$expected_user" ] || fail "PostgreSQL runs as $server_user, expected $expected_user"
  [ "$(stat -c %a "$clone/data")" = 700 ] || fail "the data folder is $(stat -c %a "$clone/data"), expected 700"
  [ "$(stat -c %a "$clone/data/postgres-credentials")" = 600 ] || fail "the credentials file is not 600"
  found=$(http -fsS -X POST "http://127.0.0.1:$port/v1/company-search" -H 'content-type: application/json' \
    -d "{\"apiKey\":\"$key\",\"pageSize\":3,\"searchParams\":{}}" | node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>console.log(JSON.parse(s).output.data.length))")
  [ "$found" = 3 ] || fail "a search with the demo key gave $found companies, expected 3"
  stop_service

  say "$kind: npm start again (same data, same key)"
  start_service "$folder/start-2.log"
  grep -q "Demo API key $key" "$log" || fail "the second start did not show the same demo key"
  grep -q 'initialising embedded PostgreSQL' "$log" && fail "the second start initialised a new cluster"
  grep -q 'Empty catalog' "$log" && fail "the second start seeded again"
  status=$(http -s -o /dev/null -w '%{http_code}' "http://127.0.0.1:$port/v1/credits?apiKey=$key")
  [ "$status" = 200 ] || fail "the demo key answered $status after the restart"
  stop_service

  say "$kind: passed in $(( $(date +%s) - started )) s (PostgreSQL ran as $server_user, data in $database_dir)"
  # As root the cluster lives outside the clone, under /var/lib: remove it with the clone.
  if [ "$who" = root ]; then rm -rf "$(dirname "$database_dir")" "$(dirname "$database_dir").data-dir"; fi
  rm -rf "$folder"
  log=
done
