#!/usr/bin/env bash
# The official MCP conformance suite against this service's /mcp surface.
#   bash scripts/mcp-conformance.sh
# Installs the suite and a Node 22 binary (it needs Node >= 22) into scripts/mcp-conformance/
# from its lockfile, apart from the project's node_modules, then runs scripts/mcp-conformance.ts.
# Uses DATABASE_URL's server when set (in a database of its own), else embedded PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=scripts/mcp-conformance
if [ ! -x "$tools/node_modules/.bin/conformance" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$tools" --no-audit --no-fund
fi
exec npx tsx scripts/mcp-conformance.ts
