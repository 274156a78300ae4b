import { writeFileSync } from 'node:fs'
import { sql } from 'kysely'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { tempDir } from '../../../test/temp-dir'
import { StoreError } from '../../kernel/errors'
import { builderOf } from '../../store/builder'
import type { Store } from '../../store/types'
import { openStore } from './open-store'
import { MIGRATIONS, SCHEMA_VERSION } from './schema/migrations'

describe('openStore', () => {
  let temp: ReturnType<typeof tempDir>
  const opened: Store[] = []
  const open = (...args: Parameters<typeof openStore>) => {
    const store = openStore(...args)
    opened.push(store)
    return store
  }

  beforeEach(() => {
    temp = tempDir()
  })
  afterEach(async () => {
    for (const store of opened.splice(0)) await store.close()
    temp.cleanup()
  })

  it('creates the file and parent folders, migrates, and sets WAL + pragmas before use', async () => {
    const path = temp.file('nested/dir/hymem.sqlite')
    const store = open({ path })
    const info = store.info()
    expect(info.schemaVersion).toBe(SCHEMA_VERSION)
    expect(info.journalMode).toBe('wal')
    const pragmas = await sql<{ fk: number; sync: number; busy: number }>`
      SELECT (SELECT foreign_keys FROM pragma_foreign_keys) AS fk,
             (SELECT synchronous FROM pragma_synchronous) AS sync,
             (SELECT timeout FROM pragma_busy_timeout) AS busy`.execute(builderOf(store))
    expect(pragmas.rows[0]).toEqual({ fk: 1, sync: 1, busy: 10_000 })
  })

  it('reports the active vector path, and the JS scan when the extension is disabled', () => {
    expect(open({ path: temp.file('a.sqlite') }).info().vectors.mode).toBe('sqlite-vec')
    const events: string[] = []
    const fallback = open({
      path: temp.file('b.sqlite'),
      loadVectorExtension: false,
      log: (e) => events.push(e.kind),
    })
    expect(fallback.info().vectors).toMatchObject({
      mode: 'js-scan',
      reason: 'sqlite-vec disabled by option',
    })
    expect(events).toEqual(['vector-fallback', 'open'])
  })

  it('re-opening an up-to-date file applies nothing', () => {
    const path = temp.file('h.sqlite')
    const migrated: (readonly string[])[] = []
    const log = (e: { kind: string; migrated?: readonly string[] }) => e.migrated && migrated.push(e.migrated)
    open({ path, log }).close()
    open({ path, log })
    expect(migrated).toEqual([MIGRATIONS.map((m) => `${m.version}-${m.name}`), []])
    expect(migrated[0]?.slice(0, 3)).toEqual(['1-initial', '2-edge-vectors', '3-edge-recency-index'])
  })

  it('refuses a file that is not SQLite with a clear error and leaves it untouched', () => {
    const path = temp.file('notes.txt')
    writeFileSync(path, 'this is my shopping list, not a database\n'.repeat(100))
    const error = catchError(() => openStore({ path }))
    expect(error).toBeInstanceOf(StoreError)
    expect((error as StoreError).code).toBe('NOT_SQLITE')
    expect((error as StoreError).message).toContain('is not a SQLite database')
  })

  it('refuses a location whose parent is a file, saying to pick a writable folder', () => {
    writeFileSync(temp.file('blocker'), 'x')
    const error = catchError(() => openStore({ path: temp.file('blocker/hymem.sqlite') }))
    expect((error as StoreError).code).toBe('NOT_WRITABLE')
    expect((error as StoreError).message).toContain('choose a writable HYMEM_ROOT')
  })

  it('refuses a folder on a virtual file system instead of hanging', () => {
    const error = catchError(() => openStore({ path: '/proc/hymem-test/nested/hymem.sqlite' }))
    expect((error as StoreError).code).toBe('NOT_WRITABLE')
  })

  it('refuses a path that is a directory', () => {
    const error = catchError(() => openStore({ path: temp.dir }))
    expect((error as StoreError).code).toBe('NOT_WRITABLE')
  })

  it('uses the injected clock and id source', () => {
    const store = open({
      path: temp.file('c.sqlite'),
      clock: () => new Date('2026-01-02T03:04:05.000Z'),
      newId: () => 'fixed-id',
    })
    expect(store.context.now()).toBe('2026-01-02T03:04:05.000Z')
    expect(store.context.newId()).toBe('fixed-id')
  })
})

function catchError(fn: () => unknown): unknown {
  try {
    fn()
  } catch (error) {
    return error
  }
  throw new Error('expected an error')
}
