import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join } from 'node:path'
import { Readable } from 'node:stream'
import { fileURLToPath } from 'node:url'
import type { CliContext } from '../src/io'

/** A fixed "now" for stable output. */
export const FIXED_NOW = new Date('2026-06-15T12:00:00.000Z')

export interface CapturedContext {
  readonly ctx: CliContext
  /** Everything written to stdout so far. */
  stdout(): string
  stderr(): string
}

/**
 * A CLI context with captured stdout/stderr (not a TTY, so no colours or progress bars), a fixed clock and
 * an environment that only contains what the test passes (no HYMEM_* leaking in from the developer's shell).
 */
export function captureContext(
  options: {
    env?: Record<string, string | undefined>
    stdin?: string
    clock?: () => Date
    fetch?: typeof globalThis.fetch
    cwd?: string
  } = {},
): CapturedContext {
  let out = ''
  let err = ''
  const ctx: CliContext = {
    stdout: {
      write: (text) => {
        out += text
      },
      isTTY: false,
    },
    stderr: {
      write: (text) => {
        err += text
      },
      isTTY: false,
    },
    stdin: Readable.from(options.stdin === undefined ? [] : [options.stdin]),
    env: { HYMEM_EMBEDDING_PROVIDER: 'none', ...options.env },
    cwd: options.cwd ?? process.cwd(),
    clock: options.clock ?? (() => FIXED_NOW),
    ...(options.fetch ? { fetch: options.fetch } : {}),
  }
  return { ctx, stdout: () => out, stderr: () => err }
}

/** A fresh temporary folder; call the returned `cleanup` in `afterEach`. */
export function tempDir(prefix = 'hymem-cli-'): { dir: string; cleanup: () => void } {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return { dir, cleanup: () => rmSync(dir, { recursive: true, force: true }) }
}

/** The path of a file under `test/fixtures`. */
export function fixture(name: string): string {
  return join(dirname(fileURLToPath(import.meta.url)), 'fixtures', name)
}
