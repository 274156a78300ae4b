import type { Chunk, Store, StoreScope } from '../src'
import { builderOf } from '../src/store/builder'

const T0 = Date.parse('2026-02-01T10:00:00.000Z')

/** ISO time `minutes` after 2026-02-01 10:00 UTC. */
export const minute = (minutes: number) => new Date(T0 + minutes * 60_000).toISOString()

/**
 * Logs one user message per text into `sessionId` (one minute apart from `start`) and chunks each message
 * on its own. Returns the chunks, in message order.
 */
export async function seedChunks(
  store: Store | StoreScope,
  workspaceId: string,
  texts: readonly string[],
  options: { sessionId?: string; start?: number } = {},
): Promise<Chunk[]> {
  const sessionId = options.sessionId ?? 's'
  const start = options.start ?? 0
  const messages = await store.messages.insertBatch(
    workspaceId,
    sessionId,
    texts.map((content, i) => ({ peerId: 'alice', role: 'user', content, createdAt: minute(start + i) })),
  )
  const chunks: Chunk[] = []
  for (const message of messages) {
    const chunk = await store.chunks.insertIfNew(workspaceId, {
      sessionId,
      text: message.content,
      salienceReason: 'test',
      messageIds: [message.id],
      occurredAt: message.createdAt,
    })
    if (chunk) chunks.push(chunk)
  }
  return chunks
}

export interface SeedEdge {
  readonly triple: [string, string, string]
  readonly confidence?: number
  readonly status?: 'active' | 'stale' | 'retracted'
  readonly derived?: boolean
  readonly validFrom?: string
  readonly validTo?: string
  readonly supersededBy?: number
}

/** Inserts an edge row with the given state and returns its id. */
export async function seedEdge(store: Store, workspaceId: string, edge: SeedEdge): Promise<number> {
  const from = edge.validFrom ?? '2026-01-01T00:00:00.000Z'
  const result = await builderOf(store)
    .insertInto('knowledge_graph')
    .values({
      workspace_id: workspaceId,
      subject: edge.triple[0],
      predicate: edge.triple[1],
      object: edge.triple[2],
      confidence: edge.confidence ?? 0.5,
      status: edge.status ?? 'active',
      derived: edge.derived ? 1 : 0,
      first_seen: from,
      last_seen: from,
      last_reinforced: from,
      valid_from: from,
      valid_to: edge.validTo ?? null,
      superseded_by: edge.supersededBy ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return result.id
}

/**
 * Logs messages (one per `[peer, text]`) in a session, makes one chunk of them, and returns the chunk id and
 * the message ids.
 */
export async function seedChunk(
  store: Store,
  workspaceId: string,
  sessionId: string,
  turns: readonly [string, string][],
): Promise<{ chunkId: number; messageIds: number[] }> {
  const messages = await store.messages.insertBatch(
    workspaceId,
    sessionId,
    turns.map(([peerId, content]) => ({ peerId, content, createdAt: '2026-01-01T00:00:00.000Z' })),
  )
  const ids = messages.map((m) => m.id)
  const result = await builderOf(store)
    .insertInto('chunks')
    .values({
      workspace_id: workspaceId,
      session_id: sessionId,
      text: turns.map(([, text]) => text).join('\n'),
      salience_reason: 'test',
      message_ids: JSON.stringify(ids),
      first_message_id: ids[0]!,
      last_message_id: ids.at(-1)!,
      occurred_at: '2026-01-01T00:00:00.000Z',
      created_at: '2026-01-01T00:00:00.000Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return { chunkId: result.id, messageIds: ids }
}

/** Records evidence for an edge from a chunk. */
export async function seedEvidence(
  store: Store,
  workspaceId: string,
  edgeId: number,
  chunk: { chunkId: number; messageIds: number[] },
  options: { polarity?: 1 | -1; text?: string; observedAt?: string } = {},
): Promise<void> {
  const at = options.observedAt ?? '2026-01-01T00:00:00.000Z'
  await builderOf(store)
    .insertInto('kg_evidence')
    .values({
      workspace_id: workspaceId,
      edge_id: edgeId,
      chunk_id: chunk.chunkId,
      message_ids: JSON.stringify(chunk.messageIds),
      polarity: options.polarity ?? 1,
      evidence_text: options.text ?? null,
      observed_at: at,
      created_at: at,
    })
    .execute()
}

/** api deploys_to heroku (superseded on March 1 by flyio), plus a few current, stale and retracted edges. */
export async function seedGraph(store: Store) {
  const fly = await seedEdge(store, 'w', {
    triple: ['api', 'deploys_to', 'flyio'],
    confidence: 0.9,
    validFrom: '2026-03-01T00:00:00.000Z',
  })
  const heroku = await seedEdge(store, 'w', {
    triple: ['api', 'deploys_to', 'heroku'],
    confidence: 0.6,
    status: 'stale',
    validTo: '2026-03-01T00:00:00.000Z',
    supersededBy: fly,
  })
  const redis = await seedEdge(store, 'w', { triple: ['job_queue', 'depends_on', 'redis'], confidence: 0.8 })
  const mysql = await seedEdge(store, 'w', {
    triple: ['api', 'uses', 'my_sql'],
    confidence: 0.7,
    status: 'retracted',
  })
  const typescript = await seedEdge(store, 'w', { triple: ['maya', 'uses', 'type_script'], confidence: 0.5 })
  await seedEdge(store, 'other', { triple: ['api', 'uses', 'java'] })
  const onboarding = await seedChunk(store, 'w', 'onboarding', [
    ['maya', 'The job queue depends on Redis.'],
    ['assistant', 'Noted.'],
  ])
  const release = await seedChunk(store, 'w', 'release', [['bob', 'We deploy the API to Fly.io now.']])
  await seedEvidence(store, 'w', redis, onboarding)
  await seedEvidence(store, 'w', fly, release)
  return { fly, heroku, redis, mysql, typescript }
}
