import { chmodSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { findLooseMemoryFiles } from './memory-files'

describe('findLooseMemoryFiles', () => {
  let root: string
  beforeEach(() => {
    root = mkdtempSync(join(tmpdir(), 'hymem-files-'))
  })
  afterEach(() => rmSync(root, { recursive: true, force: true }))

  it("lists HyMem's own files and folders that others can open, and nothing else in the folder", () => {
    // chmod, not a creation mode: the umask this test runs under must not change the modes it sets.
    const write = (path: string, mode: number) => {
      writeFileSync(join(root, path), '')
      chmodSync(join(root, path), mode)
    }
    write('hymem.sqlite', 0o600)
    write('hymem.sqlite-wal', 0o644)
    write('USER.md', 0o640)
    write('MEMORY.md', 0o600)
    write('notes-of-another-tool.txt', 0o644)
    mkdirSync(join(root, 'workspaces', 'team-b'), { recursive: true })
    chmodSync(join(root, 'workspaces'), 0o755)
    chmodSync(join(root, 'workspaces', 'team-b'), 0o755)
    write('workspaces/team-b/MEMORY.md', 0o604)
    const found = findLooseMemoryFiles({ root, databasePath: join(root, 'hymem.sqlite') })
    expect(found.map((entry) => `${entry.path.replace(root, '<root>')} ${entry.mode.toString(8)}`)).toEqual([
      '<root>/hymem.sqlite-wal 644',
      '<root>/workspaces 755',
      '<root>/USER.md 640',
      '<root>/workspaces/team-b 755',
      '<root>/workspaces/team-b/MEMORY.md 604',
    ])
    expect(findLooseMemoryFiles({ root: join(root, 'missing'), databasePath: null })).toEqual([])
  })
})
