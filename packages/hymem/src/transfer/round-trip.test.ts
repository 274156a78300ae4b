import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { canonicalDump } from '../../../core-store/test/canonical-dump'
import { collect, openTestMemory, type TestMemory } from '../../test/harness'
import { _storeOf } from '../hymem'
import type { HyMem } from '../types'

const open: TestMemory[] = []
afterEach(async () => {
  for (const t of open.splice(0)) await t.close()
})

const embedder = () => createFakeEmbeddings({ dimensions: 32 })

async function memory() {
  const t = await openTestMemory({ embeddings: embedder() })
  open.push(t)
  return t
}

/**
 * A memory with a row in every table a backup carries: two workspaces; dreamed sessions (chunks,
 * mentions, facts with evidence, a supersede chain, inferred facts, markers, profile entries, entity types,
 * episodes, a procedure, summaries); a pending message; an alias; a retracted fact (extraction feedback);
 * active and archived notes; a scope; a peer card; dream runs; vectors of every index.
 */
async function everyKind(): Promise<TestMemory> {
  const t = await memory()
  const m = t.memory
  await m.capture([{ role: 'user', content: 'We deploy the API to Heroku.' }], { sessionId: 'early' })
  await m.dream()
  t.clock.advanceDays(3)
  await m.capture(
    [
      { role: 'user', content: 'We switched from MySQL to Postgres last month for the billing service.' },
      { role: 'assistant', content: 'Noted, Postgres it is.', metadata: { dia_id: 'D1:2' } },
      { role: 'user', content: 'I prefer pnpm over npm for every project.' },
      { role: 'user', content: 'The API now deploys to Fly.io.' },
      { role: 'user', content: 'The billing service depends on the API. The API depends on Redis.' },
      {
        role: 'user',
        content: 'To deploy the API: first run pnpm build, then run fly deploy, finally check the logs.',
      },
    ],
    { sessionId: 'chat-1' },
  )
  await m.log({
    role: 'user',
    content: 'not dreamed yet: the API uses Kafka for events',
    sessionId: 'chat-2',
  })
  await m.capture([{ role: 'user', content: 'Our team deploys the web app to Vercel.' }], {
    workspaceId: 'team-b',
    dream: true,
  })
  await m.dream()
  await m.alias('PG', 'Postgres')
  await m.retract({ subject: 'user', predicate: 'prefers', object: 'pnpm', reason: 'test feedback' })
  // The next dream drops the retracted fact's vector, as every dream does.
  await m.dream()
  await m.notes.remember({ description: 'Deploy day', content: 'Deploys happen on Fridays.', importance: 3 })
  const old = await m.notes.remember({
    description: 'Old CI',
    content: 'We used to use Jenkins.',
    observedId: 'user',
  })
  await m.notes.archive({ id: old.note.id, apply: true })
  await _storeOf(m).backup.insertIfAbsent('scopes', {
    workspaceId: 'default',
    id: 'billing',
    metadata: { team: 'billing' },
    createdAt: t.clock().toISOString(),
    sessions: [{ sessionId: 'chat-1', joinedAt: t.clock().toISOString() }],
  })
  await _storeOf(m).backup.insertIfAbsent('peer_cards', {
    workspaceId: 'default',
    observerId: 'assistant',
    observedId: 'user',
    card: ['NAME: Ann'],
    updatedAt: t.clock().toISOString(),
  })
  return t
}

/** Non-empty tables of a canonical dump (so the test shows it really covers every kind of row). */
const filled = (dump: Record<string, string[]>) =>
  Object.entries(dump)
    .filter(([, rows]) => rows.length > 0)
    .map(([table]) => table)

const QUESTIONS = [
  'which database does billing use?',
  'where do we deploy the API?',
  'deploy steps',
  'Fridays',
]

async function answers(m: HyMem) {
  const out = []
  for (const question of QUESTIONS) {
    const c = await m.augment(question)
    out.push({
      facts: c.graphFacts.map((f) => [f.subject, f.predicate, f.object, f.confidence, f.whyRetrieved]),
      hits: c.hits.map((h) => [h.kind, h.text, h.whyRetrieved]),
      episodes: c.episodes.map((e) => [e.title, e.whyRetrieved]),
      procedures: c.procedures.map((p) => p.name),
      notes: c.notes.map((n) => [n.id, n.whyRetrieved]),
    })
  }
  return out
}

describe('backups: import(export(x)) reproduces x', () => {
  it('with vectors: the same rows in every table, and augment gives the same answers', async () => {
    const source = await everyKind()
    const before = await canonicalDump(_storeOf(source.memory))
    expect(filled(before)).toEqual(Object.keys(before))

    const dump = await collect(source.memory.export({ withVectors: true }))
    expect(JSON.parse(dump[0]!)).toMatchObject({ version: 2, vectors: true })
    const target = await memory()
    target.clock.set(source.clock().toISOString())
    const report = await target.memory.import(dump)
    expect(report.embedded).toBe(0)
    expect(report.warnings).toEqual([])
    expect(await canonicalDump(_storeOf(target.memory))).toEqual(before)
    expect(await answers(target.memory)).toEqual(await answers(source.memory))
  })

  it('without vectors: the import re-embeds, and the memory is the same', async () => {
    const source = await everyKind()
    const before = await canonicalDump(_storeOf(source.memory))
    const dump = await collect(source.memory.export())
    expect(dump.slice(1).join('\n')).not.toContain('"vector"')
    const target = await memory()
    target.clock.set(source.clock().toISOString())
    const report = await target.memory.import(dump)
    expect(report.embedded).toBeGreaterThan(0)
    expect(await canonicalDump(_storeOf(target.memory))).toEqual(before)
    expect(await answers(target.memory)).toEqual(await answers(source.memory))
  })

  it('merges into a non-empty memory without duplicates, and is safe to re-run', async () => {
    const source = await everyKind()
    const dump = await collect(source.memory.export({ withVectors: true }))
    const target = await memory()
    await target.memory.capture([{ role: 'user', content: 'Our docs live in Notion.' }], {
      sessionId: 'own',
      dream: true,
    })
    const own = await canonicalDump(_storeOf(target.memory))
    await target.memory.import(dump)
    const merged = await canonicalDump(_storeOf(target.memory))
    const sourceRows = await canonicalDump(_storeOf(source.memory))
    for (const [table, rows] of Object.entries(merged)) {
      expect(new Set(rows).size, table).toBe(rows.length)
      expect(rows, table).toEqual(expect.arrayContaining(own[table]!))
    }
    expect(merged.messages).toEqual([...own.messages!, ...sourceRows.messages!].sort())
    const again = await target.memory.import(dump)
    expect(again.inserted).toEqual({})
    expect(await canonicalDump(_storeOf(target.memory))).toEqual(merged)
  })

  it('imports a dump of format 1 (written before chunks, episodes and vectors were carried)', async () => {
    const v1 = readFileSync(join(import.meta.dirname, '../../test/fixtures/dump-v1.jsonl'), 'utf8').split(
      '\n',
    )
    const target = await memory()
    const report = await target.memory.import(v1)
    expect(report.inserted).toMatchObject({
      workspace: 1,
      session: 2,
      message: 4,
      edge: 3,
      note: 1,
      alias: 2,
    })
    expect(
      (await target.memory.augment('which database for billing?')).graphFacts.map((f) => f.object),
    ).toContain('postgres')
    expect((await target.memory.import(v1)).inserted).toEqual({})
  })
})
