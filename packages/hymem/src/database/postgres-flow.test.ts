import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { FORGOTTEN, TRIP, WORK } from '../../test/forget-scenario'
import { collect, openTestMemory, type TestMemory } from '../../test/harness'
import { _storeOf } from '../hymem'
import type { HyMem } from '../types'

const open: TestMemory[] = []
afterEach(async () => {
  for (const t of open.splice(0)) await t.close()
})

let schemas = 0
/** PostgreSQL on PGlite (in process) always; on a real server too with HYMEM_TEST_DATABASE_URL, a fresh schema each. */
const BACKENDS: { label: string; database: () => string }[] = [
  { label: 'PGlite', database: () => 'pglite:memory' },
]
const serverUrl = process.env.HYMEM_TEST_DATABASE_URL
if (serverUrl) {
  BACKENDS.push({
    label: 'a PostgreSQL server',
    database: () => {
      schemas += 1
      const schema = `facade_${process.pid}_${Date.now().toString(36)}_${schemas}`
      return `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}schema=${schema}`
    },
  })
}

async function memoryOn(database: string, options: { markdownMirror?: boolean } = {}): Promise<TestMemory> {
  const t = await openTestMemory({
    database,
    embeddings: createFakeEmbeddings({ dimensions: 32 }),
    ...options,
  })
  open.push(t)
  return t
}

async function textOf(memory: HyMem, question: string): Promise<string> {
  const context = await memory.augment(question)
  return JSON.stringify([context.graphFacts, context.hits, context.episodes, context.notes]).toLowerCase()
}

describe.each(BACKENDS)('the facade on $label', ({ database }) => {
  it('captures, dreams, augments, forgets a session, and exports / imports the memory', async () => {
    const t = await memoryOn(database())
    const m = t.memory
    expect(_storeOf(m).backend).toBe('postgres')
    await m.capture([...WORK], { sessionId: 'work' })
    await m.capture([...TRIP], { sessionId: 'trip' })
    const report = await m.dream()
    expect(report).toMatchObject({ status: 'ok', errors: [] })
    expect(report.edgesUpserted).toBeGreaterThan(0)

    const work = await m.augment('which database do we use for billing?')
    expect(work.graphFacts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)).toContain(
      'user uses postgres',
    )
    expect((await textOf(m, 'Zanzibar beaches')).includes('zanzib')).toBe(true)
    const note = await m.notes.remember({ description: 'Deploy day', content: 'Deploys happen on Fridays.' })
    expect((await m.notes.search('when do deploys happen?')).map((hit) => hit.note.id)).toContain(
      note.note.id,
    )

    const receipt = await m.erase.session('trip', { wait: true })
    expect(receipt).toMatchObject({ kind: 'session', messageCount: 3, status: 'done' })
    const after = await textOf(m, 'Zanzibar Quetzalcoatl booking')
    for (const word of FORGOTTEN) expect(after).not.toContain(word)
    expect((await m.profile()).userMd).not.toContain('Zanzibar')
    expect(await textOf(m, 'which database for billing?')).toContain('postgres')

    const dump = await collect(m.export({ withVectors: true }))
    const copy = await memoryOn(database())
    copy.clock.set(t.clock().toISOString())
    const imported = await copy.memory.import(dump)
    expect(imported.warnings).toEqual([])
    expect(imported.embedded).toBe(0)
    // A dump carries the memory, not the search log nor the deletion receipts.
    const { search_log: _, purges, ...counts } = (await m.stats()).counts
    expect(purges).toBe(1)
    expect((await copy.memory.stats()).counts).toEqual({ ...counts, search_log: 0, purges: 0 })
    const question = 'which database do we use for billing?'
    const facts = async (memory: HyMem) =>
      (await memory.augment(question)).graphFacts.map((f) => [f.subject, f.predicate, f.object, f.confidence])
    expect(await facts(copy.memory)).toEqual(await facts(m))
    expect((await collect(copy.memory.export({ withVectors: true }))).length).toBe(dump.length)
  })

  it('renders USER.md / MEMORY.md from the rows, and writes the files only as a mirror', async () => {
    const mirrored = await memoryOn(database())
    await mirrored.memory.capture([...WORK], { dream: true })
    const profile = await mirrored.memory.profile()
    expect(profile.userMd).toContain('pnpm')
    const paths = mirrored.memory.markdownPaths()
    expect(readFileSync(paths.userMd, 'utf8')).toBe(profile.userMd)
    expect(readFileSync(paths.memoryMd, 'utf8')).toBe(profile.memoryMd)

    const rowsOnly = await memoryOn(database(), { markdownMirror: false })
    await rowsOnly.memory.capture([...WORK], { dream: true })
    expect((await rowsOnly.memory.profile()).userMd).toBe(profile.userMd)
    expect((await rowsOnly.memory.profileData()).entries.map((e) => e.statement)).toEqual(
      (await mirrored.memory.profileData()).entries.map((e) => e.statement),
    )
    await rowsOnly.memory.erase.session('default', { wait: true })
    expect(existsSync(rowsOnly.memory.markdownPaths().userMd)).toBe(false)
    expect(existsSync(join(rowsOnly.root, 'hymem.sqlite'))).toBe(false)
    expect(existsSync(join(mirrored.root, 'hymem.sqlite'))).toBe(false)
  })
})
