// Shared by the scripts that start a fresh hymem-honcho and drive it with a tool from the npm registry.
import { spawnSync } from 'node:child_process'
import { existsSync, mkdirSync, writeFileSync } from 'node:fs'
import { createServer } from 'node:net'
import { join } from 'node:path'

/** A TCP port free on 127.0.0.1 right now. */
export function freePort() {
  return new Promise((resolvePort, reject) => {
    const probe = createServer()
    probe.once('error', reject)
    probe.listen(0, '127.0.0.1', () => {
      const { port } = probe.address()
      probe.close(() => resolvePort(port))
    })
  })
}

/**
 * The path of `bin` from the npm package `spec`, installed into `dir` on first use (again when
 * `bin --version` stops printing `version`); null when the install fails.
 */
export function cachedNpmBinary({ dir, spec, bin, version }) {
  const path = join(dir, 'node_modules', ...bin.split('/'))
  const found = existsSync(path) ? spawnSync(path, ['--version'], { encoding: 'utf8' }).stdout?.trim() : null
  if (found === version) return path
  mkdirSync(dir, { recursive: true })
  // A project of its own, so npm does not climb to the workspace root and install that instead.
  writeFileSync(join(dir, 'package.json'), '{ "private": true }\n')
  const install = spawnSync('npm', ['install', '--no-save', '--no-audit', '--no-fund', '-E', spec], {
    cwd: dir,
    stdio: ['ignore', 'inherit', 'inherit'],
  })
  return install.status === 0 ? path : null
}
