import type { Store } from '../src/store/types'

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
  const result = await store.db
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
    .executeTakeFirstOrThrow()
  return Number(result.insertId)
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
  const result = await store.db
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
    .executeTakeFirstOrThrow()
  return { chunkId: Number(result.insertId), messageIds: ids }
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
  await store.db
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
