import { existsSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Tarball } from './pack'
import { runOk } from './run-process'

/**
 * Installs the tarballs with npm into `project`, an empty folder outside the workspace, as a user would:
 * no workspace links, third-party packages from the registry, the tarballs' own dependencies on each other
 * pinned to the tarballs (overrides), so nothing of ours comes from the registry. `extra` adds registry
 * packages the checks need (the MCP client).
 */
export async function installTarballs(
  project: string,
  tarballs: readonly Tarball[],
  extra: Readonly<Record<string, string>>,
): Promise<void> {
  const ours = Object.fromEntries(tarballs.map((tarball) => [tarball.manifest.name, `file:${tarball.file}`]))
  const manifest = {
    name: 'hymem-pack-test',
    version: '0.0.0',
    private: true,
    type: 'module',
    dependencies: { ...ours, ...extra },
    overrides: ours,
  }
  writeFileSync(join(project, 'package.json'), `${JSON.stringify(manifest, null, 2)}\n`)
  await runOk('npm', ['install', '--no-audit', '--no-fund', '--loglevel=error'], {
    cwd: project,
    env: npmEnv(),
    timeoutMs: 900_000,
  })
}

/**
 * npm's environment: better-sqlite3 may compile from source, and node-gyp must then use the local Node
 * headers rather than download them (as scripts/setup.sh does for pnpm).
 */
function npmEnv(): NodeJS.ProcessEnv {
  const env = { ...process.env }
  // Running under `pnpm run`, these would point npm at the workspace's settings.
  for (const name of Object.keys(env)) if (/^npm_(config|package|lifecycle)_/.test(name)) delete env[name]
  if (existsSync('/usr/include/node/node.h'))
    env.npm_config_nodedir = process.env.npm_config_nodedir ?? '/usr'
  return env
}
