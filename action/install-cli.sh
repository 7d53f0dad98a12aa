#!/usr/bin/env bash
# The action's first step: installs the `ota` CLI into the runner's temporary folder, from INPUT_CLI (a
# tarball or npm spec) or else packed from the action's own checkout (`npm run pack`, into the runner's
# temporary folder, not the checkout), and tells the next step where it is (OTA_CLI in $GITHUB_ENV).
set -euo pipefail
prefix="${RUNNER_TEMP:?}/ota-cli"
spec="${INPUT_CLI:-}"
if [ -z "$spec" ]; then
  cd "${GITHUB_ACTION_PATH:?}"
  if [ ! -d node_modules ]; then npm ci --no-audit --no-fund </dev/null; fi
  spec="$(node scripts/pack.mjs --out "$RUNNER_TEMP/ota-packages" </dev/null | grep -E 'ota-cli-[0-9.]+\.tgz$')"
fi
# --prefix moves npm's global config file with it ({prefix}/etc/npmrc), so the machine's own (a registry
# mirror, a proxy, a certificate authority) would no longer be read: name it.
globalconfig="$(npm config get globalconfig </dev/null)"
npm install -g --prefix "$prefix" --globalconfig "$globalconfig" --no-audit --no-fund --prefer-offline "$spec" </dev/null >&2
echo "OTA_CLI=$prefix/bin/ota" >> "${GITHUB_ENV:?}"
"$prefix/bin/ota" --version
