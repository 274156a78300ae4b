import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { collect, openTestMemory, type TestMemory } from '../../test/harness'
import { createHyMem } from '../create-hymem'
import { HyMemError } from '../errors'
import { _storeOf } from '../hymem'

const open: TestMemory[] = []
afterEach(async () => {
  for (const t of open.splice(0)) await t.close()
})

async function memory(options: Parameters<typeof openTestMemory>[0] = {}) {
  const t = await openTestMemory(options)
  open.push(t)
  return t
}

/** A store with everything a dump carries: two workspaces, a dreamed graph, aliases, profile, notes. */
async function populated() {
  const source = await memory({ embeddings: createFakeEmbeddings({ dimensions: 32 }) })
  const m = source.memory
  await m.capture(
    [
      { role: 'user', content: 'We switched from MySQL to Postgres last month for the billing service.' },
      { role: 'assistant', content: 'Noted, Postgres it is.', metadata: { dia_id: 'D1:2' } },
      { role: 'user', content: 'I prefer pnpm over npm for every project.' },
    ],
    { sessionId: 'chat-1', dream: true },
  )
  await m.log({
    role: 'user',
    content: 'not dreamed yet: the API uses Redis for sessions',
    sessionId: 'chat-2',
  })
  await m.capture([{ role: 'user', content: 'Our team deploys the API to fly.io every Friday.' }], {
    workspaceId: 'team-b',
    dream: true,
  })
  await m.alias('PG', 'Postgres')
  await m.notes.remember({ description: 'Deploy day', content: 'Deploys happen on Fridays.', importance: 3 })
  const stale = await m.notes.remember({
    description: 'Old',
    content: 'We used to use Jenkins.',
    observedId: 'user',
  })
  source.clock.advanceDays(400)
  await m.notes.archive({ id: stale.note.id, apply: true })
  await _storeOf(m).workspaces.update('team-b', { metadata: { plan: 'pro' } })
  return source
}

function body(lines: readonly string[]): string[] {
  expect(JSON.parse(lines[0] ?? '{}')).toMatchObject({ type: 'header', format: 'hymem-dump', version: 2 })
  return lines.slice(1)
}

describe('export / import', () => {
  it('round-trips: export(import(export(x))) equals export(x), line for line', async () => {
    const source = await populated()
    const dump = await collect(source.memory.export())
    const types = new Set(dump.map((line) => JSON.parse(line).type))
    expect([...types].sort()).toEqual(
      [
        'alias',
        'chunk',
        'dream-run',
        'edge',
        'entity-type',
        'episode',
        'header',
        'marker',
        'message',
        'note',
        'peer',
        'profile',
        'session',
        'workspace',
      ].sort(),
    )
    expect(dump.slice(1).join('\n')).not.toMatch(/"vector"/)

    const target = await memory({ embeddings: createFakeEmbeddings({ dimensions: 48 }) })
    const report = await target.memory.import(dump)
    expect(report.inserted).toMatchObject({ workspace: 2, note: 2, session: 3, message: 5 })
    expect(report.skipped).toEqual({})
    expect(report.embedded).toBeGreaterThan(2)
    expect(await _storeOf(target.memory).vectors.pinned('edges')).toEqual({
      model: 'fake-hash-48',
      dimensions: 48,
    })
    expect(body(await collect(target.memory.export()))).toEqual(body(dump))

    expect(await _storeOf(target.memory).vectors.pinned('notes')).toEqual({
      model: 'fake-hash-48',
      dimensions: 48,
    })
    const [hit] = await target.memory.notes.search('when do deploys happen', { minSimilarity: 0 })
    expect(hit?.note.description).toBe('Deploy day')
    const context = await target.memory.augment('which database do we use?')
    expect(context.graphFacts.map((f) => f.object)).toContain('postgres')
  })

  it('is idempotent: a second import skips every row and changes nothing', async () => {
    const source = await populated()
    const dump = await collect(source.memory.export())
    const target = await memory()
    await target.memory.import(dump)
    const first = await collect(target.memory.export())
    const again = await target.memory.import(dump)
    expect(again.inserted).toEqual({})
    expect(again.skipped).toMatchObject({ workspace: 2, message: 5, note: 2 })
    expect(body(await collect(target.memory.export()))).toEqual(body(first))
  })

  it('keeps dreaming where the source left off: only undreamed messages are pending', async () => {
    const source = await populated()
    const target = await memory()
    await target.memory.import(await collect(source.memory.export()))
    expect(await target.memory.queue.backlog()).toMatchObject({
      pendingMessages: 1,
      sessions: { 'chat-2': { pendingMessages: 1 } },
    })
  })

  it('exports one workspace when asked', async () => {
    const source = await populated()
    const lines = (await collect(source.memory.export({ workspaceId: 'team-b' }))).slice(1)
    expect(new Set(lines.map((line) => JSON.parse(line).workspaceId ?? JSON.parse(line).id))).toEqual(
      new Set(['team-b']),
    )
  })

  it('refuses an invalid dump without writing anything', async () => {
    const source = await populated()
    const dump = await collect(source.memory.export())
    const target = await memory()
    const broken = [...dump.slice(0, 4), '{"type":"message","id":"x"}', 'not json', ...dump.slice(4)]
    const error = await target.memory.import(broken).catch((e: unknown) => e)
    expect(error).toBeInstanceOf(HyMemError)
    expect((error as HyMemError).code).toBe('IMPORT_FAILED')
    expect((error as HyMemError).message).toMatch(/line 5: .*; line 6: not JSON/)
    expect((await target.memory.stats()).counts.messages).toBe(0)
    await expect(target.memory.import(dump.slice(1))).rejects.toThrow(/starts with a hymem-dump header/)
    await expect(target.memory.import([])).rejects.toThrow(/empty input/)
    const future = [dump[0]!.replace('"version":2', '"version":3'), ...dump.slice(1)]
    await expect(target.memory.import(future)).rejects.toThrow(
      'line 1: version: this hymem reads dump format versions 1 and 2; import it with the hymem version that wrote it',
    )
  })
})

describe('import integrity', () => {
  it('rolls back everything when a message names a session that exists nowhere', async () => {
    const source = await populated()
    const dump = (await collect(source.memory.export())).filter(
      (line) => !(JSON.parse(line).type === 'session' && JSON.parse(line).id === 'chat-2'),
    )
    const target = await memory()
    await expect(target.memory.import(dump)).rejects.toMatchObject({
      code: 'IMPORT_FAILED',
      message: expect.stringContaining('session chat-2, which is neither in the dump nor in the store'),
    })
    const stats = await target.memory.stats()
    expect([stats.counts.messages, stats.counts.sessions, stats.counts.notes]).toEqual([0, 0, 0])
  })

  it('skips a message whose public id lives in another workspace, with a warning', async () => {
    const source = await populated()
    const dump = await collect(source.memory.export({ workspaceId: 'team-b' }))
    const target = await memory()
    await target.memory.import(dump)
    const moved = dump.map((line) => line.replaceAll('"team-b"', '"team-c"'))
    const report = await target.memory.import(moved)
    expect(report.skipped.message).toBe(1)
    expect(report.warnings).toEqual([
      expect.stringMatching(/^message .+ exists in workspace team-b: skipped$/),
      '1 chunk(s) skipped: their messages were not imported',
    ])
  })
})

describe('reindex', () => {
  it('re-embeds everything under a new model and dimension, swapping the pins in one go', async () => {
    const source = await populated()
    await source.memory.dream()
    const before = await source.memory.stats()
    expect(before.vectors.indexes.find((i) => i.name === 'notes')).toMatchObject({ dimensions: 32 })
    await source.memory.close()

    const embeddings = createFakeEmbeddings({ dimensions: 48 })
    const swapped = await createHyMem({ root: source.root, embeddings, clock: source.clock })
    try {
      await expect(swapped.notes.search('deploy')).rejects.toMatchObject({ code: 'VECTOR_MISMATCH' })
      const progress: string[] = []
      const report = await swapped.reindex({
        onProgress: (e) => progress.push(`${e.index}:${e.done}/${e.total}`),
      })
      expect(report).toMatchObject({ model: 'fake-hash-48', dimensions: 48 })
      expect(report.previous.notes).toEqual({ model: 'fake-hash-32', dimensions: 32 })
      expect(report.vectors.notes).toBe(2)
      let chunks = 0
      for (const ws of await _storeOf(swapped).workspaces.listAll())
        chunks += (await _storeOf(swapped).chunks.listAll(ws.id)).length
      expect(report.vectors.chunks).toBe(chunks)
      expect(chunks).toBeGreaterThan(before.counts.chunks ?? 0)
      let messages = 0
      for (const ws of await _storeOf(swapped).workspaces.listAll())
        messages += await _storeOf(swapped).messages.count(ws.id)
      expect(report.vectors.messages).toBe(messages)
      expect(report.previous.messages).toEqual({ model: 'fake-hash-32', dimensions: 32 })
      expect(progress).toContain('notes:2/2')
      const after = await swapped.stats()
      for (const index of after.vectors.indexes)
        expect(index).toMatchObject({ model: 'fake-hash-48', dimensions: 48 })
      expect((await swapped.notes.search('deploy fridays', { minSimilarity: 0 }))[0]?.note.description).toBe(
        'Deploy day',
      )
      const callsBefore = embeddings.calls
      const dream = await swapped.dream()
      expect(dream.errors).toEqual([])
      expect(embeddings.calls).toBe(callsBefore)
    } finally {
      await swapped.close()
    }
  })

  it('without an embedding client rebuilds the full-text index and leaves the vectors alone', async () => {
    const t = await memory()
    await t.memory.logMessages('s', [{ peerId: 'alice', content: 'The billing service runs on postgres.' }])
    const phases: string[] = []
    const report = await t.memory.reindex({ onProgress: (e) => phases.push(`${e.phase}:${e.index}`) })
    expect(report).toMatchObject({ model: null, vectors: {}, fullText: { messages: 1, notes: 0 } })
    expect(new Set(phases)).toEqual(
      new Set([
        'full-text:messages',
        'full-text:chunks',
        'full-text:episodes',
        'full-text:procedures',
        'full-text:notes',
        'full-text:passages',
      ]),
    )
  })
})
