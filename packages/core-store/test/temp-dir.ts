import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'

/** A fresh temp directory per test; `cleanup()` removes it. */
export function tempDir(prefix = 'hymem-store-'): {
  dir: string
  file: (name: string) => string
  cleanup: () => void
} {
  const dir = mkdtempSync(join(tmpdir(), prefix))
  return {
    dir,
    file: (name) => join(dir, name),
    cleanup: () => rmSync(dir, { recursive: true, force: true }),
  }
}
