import { spawnSync } from 'node:child_process'
import { mkdtempSync, rmSync } from 'node:fs'
import { createRequire } from 'node:module'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { pathToFileURL } from 'node:url'
import { describe, expect, it } from 'vitest'
import { createHyMem } from '../create-hymem'
import { HyMemError } from '../errors'

const tsxLoader = pathToFileURL(createRequire(import.meta.url).resolve('tsx')).href
const facade = pathToFileURL(join(import.meta.dirname, '../index.ts')).href

/** Opens and closes a memory with `options` in a fresh Node process and reports which drivers it loaded. */
function driversLoadedFor(options: Record<string, unknown>): { sqlite: boolean; pg: boolean } {
  const script = `
    import { createRequire } from 'node:module'
    const { createHyMem } = await import(${JSON.stringify(facade)})
    const memory = await createHyMem({ embeddings: null, ...${JSON.stringify(options)} })
    await memory.log({ role: 'user', content: 'hello' })
    await memory.close()
    const loaded = Object.keys(createRequire(import.meta.url).cache)
    console.log(JSON.stringify({
      sqlite: loaded.some((path) => path.includes('better-sqlite3')),
      pg: loaded.some((path) => /[\\\\/]node_modules[\\\\/]pg[\\\\/]/.test(path)),
    }))`
  const result = spawnSync(
    process.execPath,
    ['--conditions=@hymem/source', '--import', tsxLoader, '--input-type=module', '-e', script],
    { encoding: 'utf8' },
  )
  if (result.status !== 0) throw new Error(result.stderr)
  return JSON.parse(result.stdout.trim().split('\n').at(-1) ?? '{}')
}

describe('the database a memory opens', () => {
  it('a SQLite memory never loads pg; a PostgreSQL memory never loads better-sqlite3', () => {
    const root = mkdtempSync(join(tmpdir(), 'hymem-drivers-'))
    try {
      expect(driversLoadedFor({ root })).toEqual({ sqlite: true, pg: false })
      expect(driversLoadedFor({ root, database: 'pglite:memory' })).toEqual({ sqlite: false, pg: true })
    } finally {
      rmSync(root, { recursive: true, force: true })
    }
  }, 60_000)

  it('refuses a database that is neither a PostgreSQL URL nor a PGlite, before opening anything', async () => {
    for (const database of ['/tmp/hymem.sqlite', 'mysql://db/hymem', { pglite: null }] as const) {
      const opening = createHyMem({ embeddings: null, database: database as never })
      await expect(opening).rejects.toBeInstanceOf(HyMemError)
      await expect(opening).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    }
  })
})
