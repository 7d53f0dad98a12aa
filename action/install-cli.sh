#!/usr/bin/env bash
# The action's first step: installs the `ota` CLI into the runner's temporary folder, from INPUT_CLI (a
# tarball or npm spec) or else packed from the action's own checkout (`npm run pack`), and tells the next
# step where it is (OTA_CLI in $GITHUB_ENV).
set -euo pipefail
prefix="${RUNNER_TEMP:?}/ota-cli"
spec="${INPUT_CLI:-}"
if [ -z "$spec" ]; then
  cd "${GITHUB_ACTION_PATH:?}"
  if [ ! -d node_modules ]; then npm ci --no-audit --no-fund </dev/null; fi
  spec="$(node scripts/pack.mjs </dev/null | grep -E 'ota-cli-[0-9.]+\.tgz$')"
fi
npm install -g --prefix "$prefix" --no-audit --no-fund --prefer-offline "$spec" </dev/null >&2
echo "OTA_CLI=$prefix/bin/ota" >> "${GITHUB_ENV:?}"
"$prefix/bin/ota" --version
