import { builderOf } from '../src/store/builder'
import type { Store } from '../src/store/types'

export const PURGE_T0 = '2026-03-01T10:00:00.000Z'
const vector = (...values: number[]) => new Float32Array(values)

/**
 * A small memory as a dream leaves it: two sessions, chunks, facts with evidence, a marker consolidated into
 * the profile, an episode, a procedure, notes, vectors, a cached LLM answer and logged searches. The
 * "trip" session holds words found nowhere else (zanzibar, quetzalcoatl); the "work" session does not.
 */
export async function seedPurgeMemory(store: Store) {
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
      createdAt: PURGE_T0,
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
        observed_at: PURGE_T0,
        created_at: PURGE_T0,
      },
      {
        workspace_id: 'w',
        peer_id: 'ann',
        chunk_id: workChunk.id,
        kind: 'style',
        statement: 'Ann prefers short answers.',
        consolidated: 1,
        observed_at: PURGE_T0,
        created_at: PURGE_T0,
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
      firstSeen: PURGE_T0,
      lastSeen: PURGE_T0,
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
      created_at: PURGE_T0,
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
