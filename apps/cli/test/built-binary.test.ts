import { execFileSync, spawnSync } from 'node:child_process'
import { existsSync, readdirSync, readFileSync, statSync } from 'node:fs'
import { createRequire } from 'node:module'
import { dirname, join } from 'node:path'
import { fileURLToPath } from 'node:url'
import { afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from './harness'

const CLI_DIR = join(dirname(fileURLToPath(import.meta.url)), '..')
const BIN = join(CLI_DIR, 'dist', 'bin.js')

function tsupCli(): string {
  const manifest = createRequire(import.meta.url).resolve('tsup/package.json')
  const { bin } = JSON.parse(readFileSync(manifest, 'utf8')) as { bin: Record<string, string> }
  return join(dirname(manifest), bin.tsup!)
}

function newestSource(dir: string): number {
  return Math.max(
    ...readdirSync(dir, { withFileTypes: true }).map((entry) => {
      const path = join(dir, entry.name)
      return entry.isDirectory() ? newestSource(path) : statSync(path).mtimeMs
    }),
  )
}

// The tsup bundle itself (chunks, shebang, package.json lookup). CI builds before testing; locally the CLI is
// rebuilt here when dist/ is missing or older than src/ (about a second). Workspace packages still resolve to
// their sources, so a stale dist/ elsewhere cannot make this test lie.
describe('the built binary (dist/bin.js)', { timeout: 120_000 }, () => {
  beforeAll(() => {
    if (!existsSync(BIN) || statSync(BIN).mtimeMs < newestSource(join(CLI_DIR, 'src'))) {
      execFileSync(process.execPath, [tsupCli()], {
        cwd: CLI_DIR,
        stdio: 'pipe',
      })
    }
  }, 120_000)

  let root: string
  let cleanup: () => void
  beforeEach(() => {
    ;({ dir: root, cleanup } = tempDir())
  })
  afterEach(() => cleanup())

  const run = (args: string[]) =>
    spawnSync(process.execPath, ['--conditions=@hymem/source', '--import', 'tsx', BIN, ...args], {
      cwd: CLI_DIR,
      encoding: 'utf8',
      env: { PATH: process.env.PATH ?? '', HOME: root, HYMEM_ROOT: root, HYMEM_EMBEDDING_PROVIDER: 'none' },
    })

  it('starts with a node shebang and is what package.json names as the hymem bin', () => {
    expect(readFileSync(BIN, 'utf8').split('\n')[0]).toBe('#!/usr/bin/env node')
    const pkg = JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8'))
    expect(pkg.bin).toEqual({ hymem: 'dist/bin.js' })
  })

  it('prints its version and runs doctor --json', () => {
    const version = run(['--version'])
    expect(version.status).toBe(0)
    expect(version.stdout.trim()).toBe(
      JSON.parse(readFileSync(join(CLI_DIR, 'package.json'), 'utf8')).version,
    )
    const doctor = run(['doctor', '--offline', '--json'])
    expect(doctor.status).toBe(0)
    expect(JSON.parse(doctor.stdout).ok).toBe(true)
  })
})
