#!/usr/bin/env bash
# Prints the path of a Node 22 binary, for running the tests on Node 22 LTS besides the machine's own Node:
#   PATH="$(dirname "$(bash scripts/node22.sh)"):$PATH" npm run test:unit
# The machine's own node when it is Node 22; otherwise node@22 from the npm registry, installed from scripts/node22/'s
# lockfile into scripts/node22/node_modules (apart from the project's node_modules, whose .bin it would otherwise shadow)
# and kept there for the next run. Only the path goes to stdout; npm's output goes to stderr.
set -euo pipefail
cd "$(dirname "$0")/.."
if [ "$(node -p 'process.versions.node.split(".")[0]')" = 22 ]; then
  command -v node
  exit 0
fi
tools=scripts/node22
binary="$tools/node_modules/node/bin/node"
if [ ! -x "$binary" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
  timeout --kill-after=10 600 npm ci --prefix "$tools" --no-audit --no-fund >&2
fi
version=$(timeout 30 "$binary" -p 'process.versions.node')
case "$version" in
  22.*) ;;
  *) echo "scripts/node22.sh: $binary is Node $version, not 22" >&2; exit 1 ;;
esac
printf '%s/%s\n' "$PWD" "$binary"
