import { readFileSync } from 'node:fs'
import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'
import { builderOf } from '../store/builder'
import type { Store } from '../store/types'

const T0 = '2026-03-01T10:00:00.000Z'
const vector = (...values: number[]) => new Float32Array(values)

/**
 * A small memory as a dream leaves it: two sessions, chunks, facts with evidence, a marker consolidated into
 * the profile, an episode, a procedure, notes, vectors, a cached LLM answer and logged searches. The
 * "trip" session holds words found nowhere else (zanzibar, quetzalcoatl); the "work" session does not.
 */
async function seed(store: Store) {
  const [trip1, trip2] = await store.messages.insertBatch('w', 'trip', [
    { peerId: 'ann', role: 'user', content: 'We flew to Zanzibar on Quetzalcoatl Airways.' },
    { peerId: 'bot', role: 'assistant', content: 'Zanzibar sounds lovely.' },
  ])
  const [work1, work2] = await store.messages.insertBatch('w', 'work', [
    { peerId: 'ann', role: 'user', content: 'Billing runs on Postgres.' },
    { peerId: 'ann', role: 'user', content: 'I prefer short answers.' },
  ])
  const tripChunk = (await store.chunks.insertIfNew('w', {
    sessionId: 'trip',
    text: 'user: We flew to Zanzibar on Quetzalcoatl Airways.\nassistant: Zanzibar sounds lovely.',
    salienceReason: 'fact',
    messageIds: [trip1!.id, trip2!.id],
  }))!
  const workChunk = (await store.chunks.insertIfNew('w', {
    sessionId: 'work',
    text: 'user: Billing runs on Postgres.\nuser: I prefer short answers.',
    salienceReason: 'fact',
    messageIds: [work1!.id, work2!.id],
  }))!
  const visited = await store.edges.insert('w', { subject: 'ann', predicate: 'visited', object: 'zanzibar' })
  const billing = await store.edges.insert('w', { subject: 'billing', predicate: 'uses', object: 'postgres' })
  // "ann uses postgres" rests on both sessions; "ann visited quetzalcoatl airways" superseded an older fact.
  const both = await store.edges.insert('w', { subject: 'ann', predicate: 'uses', object: 'postgres' })
  const older = await store.edges.insert('w', {
    subject: 'ann',
    predicate: 'deploys_to',
    object: 'heroku',
    status: 'stale',
    validTo: '2026-02-01T00:00:00.000Z',
  })
  const airline = await store.edges.insert('w', {
    subject: 'ann',
    predicate: 'deploys_to',
    object: 'quetzalcoatl airways',
  })
  await store.edges.setSupersededBy('w', older.id, airline.id)
  // Inferred over the forgotten fact's entity: the next dream infers again from what remains.
  await store.edges.insert('w', {
    subject: 'trip',
    predicate: 'depends_on',
    object: 'zanzibar',
    derived: true,
  })
  const evidence = async (edgeId: number, chunkId: number, messageIds: number[], at: string) =>
    store.evidence.add('w', {
      edgeId,
      chunkId,
      messageIds,
      evidenceText: 'quoted',
      observedAt: at,
      createdAt: T0,
    })
  await evidence(visited.id, tripChunk.id, [trip1!.id, trip2!.id], '2026-01-10T00:00:00.000Z')
  await evidence(airline.id, tripChunk.id, [trip1!.id, trip2!.id], '2026-01-10T00:00:00.000Z')
  await evidence(billing.id, workChunk.id, [work1!.id, work2!.id], '2026-01-20T00:00:00.000Z')
  await evidence(both.id, tripChunk.id, [trip1!.id, trip2!.id], '2026-01-10T00:00:00.000Z')
  await evidence(both.id, workChunk.id, [work1!.id, work2!.id], '2026-01-20T00:00:00.000Z')
  await store.entityTypes.set('w', { entity: 'zanzibar', type: 'place' })
  await store.entityTypes.set('w', { entity: 'postgres', type: 'database' })
  await builderOf(store)
    .insertInto('entity_mentions')
    .values([
      { workspace_id: 'w', chunk_id: tripChunk.id, entity: 'zanzibar' },
      { workspace_id: 'w', chunk_id: workChunk.id, entity: 'postgres' },
    ])
    .execute()
  await builderOf(store)
    .insertInto('behavioral_markers')
    .values([
      {
        workspace_id: 'w',
        peer_id: 'ann',
        chunk_id: tripChunk.id,
        kind: 'preference',
        statement: 'Ann prefers window seats to Zanzibar.',
        consolidated: 1,
        observed_at: T0,
        created_at: T0,
      },
      {
        workspace_id: 'w',
        peer_id: 'ann',
        chunk_id: workChunk.id,
        kind: 'style',
        statement: 'Ann prefers short answers.',
        consolidated: 1,
        observed_at: T0,
        created_at: T0,
      },
    ])
    .execute()
  for (const [kind, statement, key] of [
    ['preference', 'Ann prefers window seats to Zanzibar.', 'ann prefers window seats to zanzibar'],
    ['style', 'Ann prefers short answers.', 'ann prefers short answers'],
  ] as const) {
    await store.markers.insertProfileEntryIfAbsent({
      workspaceId: 'w',
      peerId: 'ann',
      kind,
      statement,
      statementKey: key,
      posEvidence: 1,
      negEvidence: 0,
      firstSeen: T0,
      lastSeen: T0,
    })
  }
  await store.episodes.upsert('w', {
    id: 'ep-trip',
    sessionId: 'trip',
    title: 'Zanzibar trip',
    summary: 'Ann flew to Zanzibar.',
    chunkIds: [tripChunk.id],
    messageIds: [trip1!.id, trip2!.id],
  })
  await store.episodes.upsert('w', {
    id: 'ep-work',
    sessionId: 'work',
    title: 'Billing database',
    summary: 'Billing runs on Postgres.',
    chunkIds: [workChunk.id],
  })
  await store.procedures.upsert('w', {
    id: 'proc-trip',
    sessionId: 'trip',
    name: 'Book Quetzalcoatl flights',
    description: 'How Ann books flights to Zanzibar',
    steps: ['Open the Quetzalcoatl site'],
    chunkIds: [tripChunk.id],
  })
  await store.sessions.setSummary('w', 'trip', { text: 'A trip to Zanzibar.', messageId: trip2!.id })
  await store.sessions.setSummary('w', 'work', { text: 'Billing runs on Postgres.', messageId: work2!.id })
  const tripNote = await store.notes.insert('w', {
    description: 'travel',
    content: 'Ann went to Zanzibar',
    sessionId: 'trip',
  })
  const citing = await store.notes.insert('w', {
    description: 'airline',
    content: 'Ann likes Quetzalcoatl Airways',
    sourceIds: [trip1!.publicId],
  })
  const derived = await store.notes.insert('w', {
    description: 'deduction',
    content: 'Ann travels to islands like Zanzibar',
    sourceIds: [citing.id],
  })
  const keptNote = await store.notes.insert('w', { description: 'db', content: 'Billing uses Postgres' })
  await store.vectors.upsert(
    'chunks',
    [
      { id: tripChunk.id, workspaceId: 'w', vector: vector(1, 0, 0), textHash: 'a' },
      { id: workChunk.id, workspaceId: 'w', vector: vector(0, 1, 0), textHash: 'b' },
    ],
    'fake',
  )
  await store.vectors.upsert(
    'edges',
    [
      { id: visited.id, workspaceId: 'w', vector: vector(1, 0, 0), textHash: 'c' },
      { id: billing.id, workspaceId: 'w', vector: vector(0, 1, 0), textHash: 'd' },
    ],
    'fake',
  )
  await store.vectors.cacheTextVectors('fake', [
    { text: 'ann visited zanzibar', vector: vector(1, 0, 0) },
    { text: 'billing uses postgres', vector: vector(0, 1, 0) },
  ])
  await store.vectors.upsert(
    'episodes',
    [{ id: 'ep-trip', workspaceId: 'w', vector: vector(1, 0, 0), textHash: 'e' }],
    'fake',
  )
  await store.vectors.upsert(
    'notes',
    [{ id: tripNote.id, workspaceId: 'w', vector: vector(1, 0, 0), textHash: 'f' }],
    'fake',
  )
  await builderOf(store)
    .insertInto('llm_cache')
    .values([
      { key: 'before', model: 'm', response: '{"old":true}', created_at: '2020-01-01T00:00:00.000Z' },
      { key: 'after', model: 'm', response: '{"object":"Zanzibar"}', created_at: '2030-01-01T00:00:00.000Z' },
    ])
    .execute()
  await builderOf(store)
    .insertInto('extraction_feedback')
    .values({
      workspace_id: 'w',
      subject: 'ann',
      predicate: 'visited',
      object: 'quetzalcoatl',
      chunk_text: 'user: We flew to Zanzibar on Quetzalcoatl Airways.\nassistant: Zanzibar sounds lovely.',
      created_at: T0,
    })
    .execute()
  for (const query of ['when did we go to zanzibar?', 'which database for billing?']) {
    await store.searchLog.record('w', {
      surface: 'augment',
      query,
      candidates: 1,
      hits: 1,
      topScore: 1,
      latencyMs: 1,
    })
  }
  return {
    trip1: trip1!,
    trip2: trip2!,
    work1: work1!,
    tripChunk,
    workChunk,
    visited,
    billing,
    both,
    older,
    airline,
    keptNote,
    derived,
  }
}

function fileWords(path: string): string {
  const parts = [path, `${path}-wal`].map((file) => {
    try {
      return readFileSync(file).toString('latin1').toLowerCase()
    } catch {
      return ''
    }
  })
  return parts.join('\n')
}

describe('purges repository', () => {
  const stores = useTempStores()

  it('forgets a session and everything derived from it, and keeps the other session whole', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    const s = await seed(store)
    const requested = await store.purges.request('w', { kind: 'session', sessionId: 'trip' })
    expect(requested).toMatchObject({ kind: 'session', target: 'trip', messageCount: 2, status: 'requested' })

    const purge = await store.purges.removeRows(requested.id)
    expect(purge.status).toBe('rows-removed')
    expect(purge.removed).toEqual({
      chunks: 1,
      derivedFacts: 1,
      episodes: 1,
      evidence: 3,
      facts: 2,
      factsRecomputed: 1,
      factsReopened: 1,
      feedback: 1,
      entityTypes: 1,
      llmCache: 1,
      markers: 1,
      mentions: 1,
      messages: 2,
      notes: 3,
      procedures: 1,
      profileEntries: 1,
      searchLog: 1,
      sessions: 1,
      summariesCleared: 1,
      vectors: 4,
    })
    expect((await store.messages.listBySession('w', 'trip')).total).toBe(0)
    expect((await store.messages.listBySession('w', 'work')).total).toBe(2)
    expect((await store.chunks.listAll('w')).map((c) => c.id)).toEqual([s.workChunk.id])
    const edges = await store.edges.listAll('w')
    expect(edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`).sort()).toEqual([
      'ann deploys_to heroku',
      'ann uses postgres',
      'billing uses postgres',
    ])
    const reopened = edges.find((e) => e.object === 'heroku')!
    expect(reopened).toMatchObject({ status: 'active', validTo: null, supersededBy: null })
    const both = edges.find((e) => e.subject === 'ann' && e.object === 'postgres')!
    expect(both).toMatchObject({ posEvidence: 1, negEvidence: 0, validFrom: '2026-01-20T00:00:00.000Z' })
    expect(both.confidence).toBeCloseTo(2 / 3)
    expect((await store.markers.profileEntries('w', { order: 'by-key' })).map((e) => e.statement)).toEqual([
      'Ann prefers short answers.',
    ])
    expect((await store.episodes.listAll('w')).map((e) => e.id)).toEqual(['ep-work'])
    expect(await store.fullText.search('procedures', 'quetzalcoatl', { workspaceId: 'w', limit: 5 })).toEqual(
      [],
    )
    expect(await store.fullText.search('messages', 'zanzibar', { workspaceId: 'w', limit: 5 })).toEqual([])
    expect(await store.fullText.search('chunks', 'zanzibar', { workspaceId: 'w', limit: 5 })).toEqual([])
    const notes = await store.notes.getByIds('w', [s.keptNote.id, s.derived.id])
    expect(notes.map((n) => n.id)).toEqual([s.keptNote.id])
    const session = await store.sessions.get('w', 'trip')
    expect(session).toMatchObject({ isActive: false, summary: null, metadata: {} })
    expect((await store.sessions.get('w', 'work'))?.summary).toBe('Billing runs on Postgres.')
    expect((await store.searchLog.list('w')).map((q) => q.query)).toEqual(['which database for billing?'])
    expect(await store.vectors.textHashes('chunks', 'w', [s.tripChunk.id, s.workChunk.id])).toEqual(
      new Map([[s.workChunk.id, 'b']]),
    )
    expect(
      await store.vectors.cachedTextVectors('fake', ['ann visited zanzibar', 'billing uses postgres']),
    ).toEqual(new Map([['billing uses postgres', vector(0, 1, 0)]]))
    expect(await store.entityTypes.typesOf('w', ['zanzibar', 'postgres'])).toEqual(
      new Map([['postgres', 'database']]),
    )
    const cache = await builderOf(store).selectFrom('llm_cache').select('key').execute()
    expect(cache.map((r) => r.key)).toEqual(['before'])

    const compaction = await store.purges.compact(purge.id)
    expect(compaction.checkpointed).toBe(true)
    expect(compaction.optimized).toEqual([
      'messages_fts',
      'chunks_fts',
      'episodes_fts',
      'procedures_fts',
      'notes_fts',
    ])
    expect(compaction.purge).toMatchObject({ status: 'done', finishedAt: T0 })
    const bytes = fileWords(stores.file('hymem.sqlite'))
    expect(bytes).not.toContain('zanzib')
    expect(bytes).not.toContain('quetzal')
    expect(bytes).toContain('postgres')
    expect(bytes).toContain('short answers')
  })

  it('is idempotent: another pass removes nothing more, and a done purge is left alone', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    await seed(store)
    const { id } = await store.purges.request('w', { kind: 'session', sessionId: 'trip' })
    const first = await store.purges.removeRows(id)
    const again = await store.purges.removeRows(id)
    expect(again.removed).toEqual(first.removed)
    expect(again.rowsRemovedAt).toBe(first.rowsRemovedAt)
    await store.purges.compact(id)
    expect((await store.purges.removeRows(id)).status).toBe('done')
    expect((await store.purges.compact(id)).optimized).toEqual([])
  })

  it('forgets single messages: their chunk goes whole, the session summary is cleared for a rebuild', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    const s = await seed(store)
    const { id } = await store.purges.request('w', { kind: 'messages', messageIds: [s.trip1.id, 999_999] })
    const purge = await store.purges.removeRows(id)
    expect(purge.messageCount).toBe(1)
    expect(purge.removed).toMatchObject({ messages: 1, chunks: 1, summariesCleared: 1 })
    expect((await store.messages.listBySession('w', 'trip')).items.map((m) => m.content)).toEqual([
      'Zanzibar sounds lovely.',
    ])
    expect(await store.sessions.get('w', 'trip')).toMatchObject({ isActive: true, summary: null })
  })

  it("forgets a peer's messages across sessions", async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    await seed(store)
    const { id } = await store.purges.request('w', { kind: 'peer-messages', peerId: 'ann' })
    const purge = await store.purges.removeRows(id)
    expect(purge).toMatchObject({ kind: 'peer-messages', target: 'ann', messageCount: 3 })
    const left = [
      ...(await store.messages.listBySession('w', 'trip')).items,
      ...(await store.messages.listBySession('w', 'work')).items,
    ]
    expect(left.map((m) => m.peerId)).toEqual(['bot'])
    expect(await store.chunks.listAll('w')).toEqual([])
  })

  it('forgets one fact: its evidence and vector go, the facts it superseded come back, messages stay', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    const s = await seed(store)
    const { id } = await store.purges.request('w', { kind: 'fact', edgeId: s.airline.id })
    const purge = await store.purges.removeRows(id)
    expect(purge.removed).toMatchObject({ facts: 1, evidence: 1, factsReopened: 1, llmCache: 1 })
    expect(await store.edges.getByIds('w', [s.airline.id])).toEqual([])
    expect((await store.edges.getByIds('w', [s.older.id]))[0]).toMatchObject({
      status: 'active',
      validTo: null,
    })
    expect((await store.messages.listBySession('w', 'trip')).total).toBe(2)
  })

  it('forgets a note and the notes derived from it', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    const s = await seed(store)
    const cited = (await store.notes.getByIds('w', [s.derived.id]))[0]!
    const source = String(cited.sourceIds[0])
    const { id } = await store.purges.request('w', { kind: 'note', noteId: source })
    expect((await store.purges.removeRows(id)).removed).toMatchObject({ notes: 2 })
    expect(await store.notes.getByIds('w', [s.derived.id, source])).toEqual([])
  })

  it('forgets a workspace, keeps its receipts, and leaves other workspaces alone', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    await seed(store)
    await store.messages.insertBatch('other', 's', [{ peerId: 'x', content: 'Zanzibar is elsewhere too.' }])
    const { id } = await store.purges.request('w', { kind: 'workspace' })
    const purge = await store.purges.removeRows(id)
    expect(purge.removed).toMatchObject({ messages: 4, chunks: 2, sessions: 2, facts: 6, notes: 4 })
    expect(await store.workspaces.get('w')).toBeNull()
    expect(await store.messages.count('other')).toBe(1)
    await store.purges.compact(id)
    expect((await store.purges.recent('w')).map((p) => [p.kind, p.status])).toEqual([['workspace', 'done']])
    expect(fileWords(stores.file('hymem.sqlite'))).not.toContain('quetzal')
  })

  it('lists unfinished purges and refuses bad targets and out-of-order steps', async () => {
    const store = stores.open({ clock: () => new Date(T0) })
    const { id } = await store.purges.request('w', { kind: 'note', noteId: 'n1' })
    expect((await store.purges.unfinished()).map((p) => p.id)).toEqual([id])
    expect((await store.purges.unfinished('elsewhere')).length).toBe(0)
    await expectStoreError(store.purges.compact(id), 'INVALID_INPUT')
    await expectStoreError(store.purges.removeRows(12345), 'NOT_FOUND')
    await expectStoreError(store.purges.request('w', { kind: 'fact', edgeId: -1 }), 'INVALID_INPUT')
    await expectStoreError(store.purges.request('w', { kind: 'session', sessionId: '' }), 'INVALID_INPUT')
    await expectStoreError(store.purges.request('w', { kind: 'bogus' } as never), 'INVALID_INPUT')
  })
})
