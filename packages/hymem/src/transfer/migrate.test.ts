import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { TRIP, WORK } from '../../test/forget-scenario'
import { tempRoot } from '../../test/harness'
import { createHyMem } from '../create-hymem'
import { _storeOf } from '../hymem'
import type { HyMem } from '../types'
import { migrateMemory } from './migrate'

const cleanups: (() => void)[] = []
afterEach(() => {
  for (const cleanup of cleanups.splice(0)) cleanup()
})

function folder(): string {
  const { root, cleanup } = tempRoot()
  cleanups.push(cleanup)
  return root
}

const embeddings = () => createFakeEmbeddings({ dimensions: 32 })
const QUESTIONS = ['which database for billing?', 'pnpm or npm?', 'Zanzibar beaches', 'deploy day']

async function answers(memory: HyMem) {
  const out = []
  for (const question of QUESTIONS) {
    const c = await memory.augment(question)
    out.push({
      facts: c.graphFacts.map((f) => [f.subject, f.predicate, f.object, f.confidence]),
      hits: c.hits.map((h) => [h.kind, h.text]),
      notes: c.notes.map((n) => n.id),
    })
  }
  return out
}

/** Opens a memory on a SQLite file or a database URL with the fake embedder, runs `fn`, closes it. */
async function withMemory<T>(where: string, fn: (memory: HyMem) => Promise<T>): Promise<T> {
  const memory = where.includes(':')
    ? await createHyMem({ database: where, embeddings: embeddings(), markdownMirror: false })
    : await createHyMem({ root: join(where, '..'), databasePath: where, embeddings: embeddings() })
  try {
    return await fn(memory)
  } finally {
    await memory.close()
  }
}

describe('migrateMemory', () => {
  it('copies SQLite → PostgreSQL (PGlite) → SQLite with every count and the augment answers equal', async () => {
    const sqlite = join(folder(), 'hymem.sqlite')
    const postgres = `pglite:${join(folder(), 'pg')}`
    const back = join(folder(), 'back.sqlite')
    const expected = await withMemory(sqlite, async (m) => {
      await m.capture([...WORK], { sessionId: 'work' })
      await m.capture([...TRIP], { sessionId: 'trip', workspaceId: 'travel' })
      await m.dream()
      await m.dream({ workspaceId: 'travel' })
      await m.alias('PG', 'Postgres')
      await m.notes.remember({ description: 'Deploy day', content: 'Deploys happen on Fridays.' })
      await _storeOf(m).scopes.addSessions('default', 'team', ['work'])
      await _storeOf(m).peerCards.set('default', 'assistant', 'user', ['NAME: Sam'])
      const scratch = await m.notes.remember({
        description: 'Scratch',
        content: 'A note forgotten for good.',
      })
      await m.erase.note(scratch.note.id, { wait: true })
      return answers(m)
    })

    const there = await migrateMemory({ from: sqlite, to: postgres })
    expect(there.rerun).toBe(false)
    expect(there.tables.messages).toEqual({ from: 5, to: 5 })
    expect(there.tables.workspaces).toEqual({ from: 2, to: 2 })
    for (const table of [
      'session_peers',
      'message_embeddings',
      'chunk_embeddings',
      'edge_vectors',
      'entity_mentions',
      'processed_chunks',
      'scopes',
      'scope_sessions',
      'peer_cards',
    ])
      expect(there.tables[table]?.to, table).toBeGreaterThan(0)
    // Deletion receipts stay with the store whose message ids they name.
    expect(there.tables.purges).toBeUndefined()
    for (const [table, counts] of Object.entries(there.tables)) expect(counts.to, table).toBe(counts.from)
    expect(await withMemory(postgres, answers)).toEqual(expected)

    const again = await migrateMemory({ from: sqlite, to: postgres })
    expect(again.rerun).toBe(true)
    expect(again.tables).toEqual(there.tables)

    const home = await migrateMemory({ from: postgres, to: back })
    expect(home.tables).toEqual(there.tables)
    expect(await withMemory(back, answers)).toEqual(expected)
  }, 120_000)

  it('refuses a target holding another memory, and the same memory on both sides, before writing', async () => {
    const source = join(folder(), 'a.sqlite')
    const other = join(folder(), 'b.sqlite')
    await withMemory(source, (m) => m.capture([...WORK]))
    await withMemory(other, (m) => m.capture([...TRIP]))
    await expect(migrateMemory({ from: source, to: other })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
      message: expect.stringMatching(/already holds a different memory \(\d+ rows\); migrate into an empty/),
    })
    await expect(migrateMemory({ from: source, to: source })).rejects.toMatchObject({ code: 'INVALID_INPUT' })
    await expect(migrateMemory({ from: source, to: 'mysql://db/x' })).rejects.toMatchObject({
      code: 'INVALID_INPUT',
    })
  })
})
