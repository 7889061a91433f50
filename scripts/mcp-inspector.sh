#!/usr/bin/env bash
# The MCP Inspector CLI (a client we did not write) against a freshly started service, driven
# without a person: API-key refusals and the whole OAuth sign-in on /mcp/v3.
#   bash scripts/mcp-inspector.sh
# Installs the Inspector and a Node 22 binary (it needs Node >= 22.19) into scripts/mcp-inspector/
# from its lockfile, apart from the project's node_modules, then runs scripts/mcp-inspector.ts.
# Uses DATABASE_URL's server when set (in a database of its own), else embedded PostgreSQL.
set -euo pipefail
cd "$(dirname "$0")/.."
tools=scripts/mcp-inspector
if [ ! -x "$tools/node_modules/.bin/node" ] || [ "$tools/package-lock.json" -nt "$tools/node_modules/.package-lock.json" ]; then
  npm ci --prefix "$tools" --no-audit --no-fund
fi
exec npx tsx scripts/mcp-inspector.ts
