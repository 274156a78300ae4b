#!/bin/sh
# Installs the toolchain and dependencies, builds every package, and puts the hymem and hymem-honcho
# binaries on the PATH (links in npm's global bin folder; HYMEM_BIN_DIR=<dir> picks another folder).
# Safe to re-run: a warm pnpm store makes later runs take seconds.
set -eu
cd "$(dirname "$0")/.."

PNPM_VERSION=12.4.2

if ! command -v pnpm >/dev/null 2>&1 || [ "$(pnpm --version 2>/dev/null)" != "$PNPM_VERSION" ]; then
  echo "setup: installing pnpm $PNPM_VERSION"
  npm install --global "pnpm@$PNPM_VERSION" >/dev/null
fi

# better-sqlite3 compiles from source; point node-gyp at the local Node headers
# instead of letting it download them (pnpm ignores .npmrc's nodedir).
if [ -z "${npm_config_nodedir:-}" ] && [ -f /usr/include/node/node.h ]; then
  export npm_config_nodedir=/usr
fi

if [ "${CI:-}" = "true" ]; then
  pnpm install --frozen-lockfile
else
  pnpm install
fi
pnpm build
node scripts/link-bins.mjs
