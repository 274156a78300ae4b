import { chmodSync, mkdirSync, statSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { afterAll, afterEach, beforeAll, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../test/temp-dir'
import { openStore } from '../engine/sqlite/open-store'
import { sqliteFilesOf } from '../engine/sqlite/sqlite-files'
import { writeSection } from '../markdown'
import { findLoosePermissions } from './loose-permissions'
import { createPrivateFile, ensurePrivateDirectory } from './private-files'

const modeOf = (path: string) => (statSync(path).mode & 0o777).toString(8)

// The usual umask, under which Node and SQLite create files 0644 and folders 0755 unless told otherwise.
let previousUmask: number
beforeAll(() => {
  previousUmask = process.umask(0o022)
})
afterAll(() => {
  process.umask(previousUmask)
})

describe('private memory files under umask 022', () => {
  let temp: ReturnType<typeof tempDir>
  beforeEach(() => {
    temp = tempDir()
  })
  afterEach(() => temp.cleanup())

  it('creates every missing folder 0700 and leaves existing ones as they are', () => {
    const shared = temp.file('shared')
    mkdirSync(shared, 0o755)
    ensurePrivateDirectory(join(shared, 'a', 'b'))
    expect([shared, join(shared, 'a'), join(shared, 'a', 'b')].map(modeOf)).toEqual(['755', '700', '700'])
    ensurePrivateDirectory(join(shared, 'a', 'b'))
    expect(modeOf(join(shared, 'a', 'b'))).toBe('700')
  })

  it('creates a file 0600, and never touches one that exists', () => {
    const file = temp.file('x')
    expect(createPrivateFile(file)).toBe(true)
    expect(modeOf(file)).toBe('600')
    chmodSync(file, 0o640)
    writeFileSync(file, 'kept')
    expect(createPrivateFile(file)).toBe(false)
    expect(modeOf(file)).toBe('640')
    expect(() => createPrivateFile(temp.file('missing/x'))).toThrow(/ENOENT/)
  })

  it('opens a new SQLite database 0600 in new 0700 folders, and its WAL and SHM copy that mode', async () => {
    const path = temp.file('memory/nested/hymem.sqlite')
    const store = openStore({ path })
    try {
      await store.workspaces.getOrCreate('default')
      const [db, wal, shm] = sqliteFilesOf(path)
      expect([db, wal, shm].map((file) => modeOf(file!))).toEqual(['600', '600', '600'])
      expect([temp.file('memory'), temp.file('memory/nested')].map(modeOf)).toEqual(['700', '700'])
      const fork = store.fork()
      await fork.workspaces.getOrCreate('other')
      await fork.close()
      expect(modeOf(db!)).toBe('600')
    } finally {
      await store.close()
    }
  })

  it('keeps the mode of a database that exists (doctor reports it), and SQLite gives its WAL the same', async () => {
    const path = temp.file('hymem.sqlite')
    writeFileSync(path, '', { mode: 0o644 })
    const store = openStore({ path })
    try {
      await store.workspaces.getOrCreate('default')
      expect(sqliteFilesOf(path).slice(0, 3).map(modeOf)).toEqual(['644', '644', '644'])
    } finally {
      await store.close()
    }
  })

  it('writes new Markdown files 0600 in new 0700 folders; an existing file keeps its mode', async () => {
    const file = temp.file('workspaces/team/USER.md')
    await writeSection(file, 'profile', 'likes tea')
    expect([temp.file('workspaces'), temp.file('workspaces/team'), file].map(modeOf)).toEqual([
      '700',
      '700',
      '600',
    ])
    const mine = temp.file('MEMORY.md')
    writeFileSync(mine, '# mine\n', { mode: 0o640 })
    await writeSection(mine, 'insights', 'x')
    expect(modeOf(mine)).toBe('640')
  })

  it('finds the paths other users can reach, with their mode, and skips missing ones', () => {
    const open = temp.file('open.md')
    const closed = temp.file('closed.md')
    const folder = temp.file('folder')
    writeFileSync(open, '', { mode: 0o644 })
    writeFileSync(closed, '', { mode: 0o600 })
    mkdirSync(folder, 0o711)
    expect(findLoosePermissions([open, closed, folder, temp.file('missing'), open])).toEqual([
      { path: open, kind: 'file', mode: 0o644 },
      { path: folder, kind: 'directory', mode: 0o711 },
    ])
  })
})
