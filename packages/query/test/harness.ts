import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import { sql } from 'kysely'

export const WS = 'ws'
export const NOW = new Date('2026-06-15T12:00:00.000Z')

/** ISO time `days` before {@link NOW}. */
export function daysAgo(days: number): string {
  return new Date(NOW.getTime() - days * 86_400_000).toISOString()
}

export interface TestStore {
  readonly store: Store
  readonly dir: string
  close(): Promise<void>
}

/** A real SQLite file in a temp dir with a fixed clock. */
export function openTestStore(
  options: { loadVectorExtension?: boolean; clock?: () => Date } = {},
): TestStore {
  const dir = mkdtempSync(join(tmpdir(), 'hymem-'))
  const store = openStore({
    path: join(dir, 'hymem.sqlite'),
    clock: options.clock ?? (() => NOW),
    ...(options.loadVectorExtension === false ? { loadVectorExtension: false } : {}),
  })
  return {
    store,
    dir,
    close: async () => {
      await store.close()
      rmSync(dir, { recursive: true, force: true })
    },
  }
}

export interface EdgeInput {
  subject: string
  predicate: string
  object: string
  confidence?: number
  pos?: number
  neg?: number
  status?: 'active' | 'stale' | 'retracted'
  derived?: boolean
  lastSeen?: string
  validFrom?: string
  validTo?: string | null
  /** Evidence rows: their own message ids and/or a chunk. */
  evidence?: { messageIds?: number[]; chunkId?: number }[]
  workspaceId?: string
}

/** Inserts an edge (and its evidence) directly; returns its id. */
export async function insertEdge(store: Store, edge: EdgeInput): Promise<number> {
  const seen = edge.lastSeen ?? daysAgo(1)
  const row = await store.db
    .insertInto('knowledge_graph')
    .values({
      workspace_id: edge.workspaceId ?? WS,
      subject: edge.subject,
      predicate: edge.predicate,
      object: edge.object,
      pos_evidence: edge.pos ?? 1,
      neg_evidence: edge.neg ?? 0,
      confidence: edge.confidence ?? 0.8,
      status: edge.status ?? 'active',
      derived: edge.derived ? 1 : 0,
      first_seen: seen,
      last_seen: seen,
      last_reinforced: seen,
      valid_from: edge.validFrom ?? seen,
      valid_to: edge.validTo ?? null,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  for (const evidence of edge.evidence ?? []) {
    await store.db
      .insertInto('kg_evidence')
      .values({
        workspace_id: edge.workspaceId ?? WS,
        edge_id: row.id,
        chunk_id: evidence.chunkId ?? null,
        message_ids: JSON.stringify(evidence.messageIds ?? []),
        polarity: 1,
        observed_at: seen,
        created_at: seen,
      })
      .execute()
  }
  return row.id
}

/** Logs messages in one session; returns their `messages.id`. */
export async function insertMessages(
  store: Store,
  sessionId: string,
  messages: { peerId?: string; content: string; createdAt?: string }[],
  workspaceId = WS,
): Promise<number[]> {
  const rows = await store.messages.insertBatch(
    workspaceId,
    sessionId,
    messages.map((m) => ({
      peerId: m.peerId ?? 'user',
      content: m.content,
      createdAt: m.createdAt ?? daysAgo(2),
    })),
  )
  return rows.map((row) => row.id)
}

/** Inserts a chunk over existing messages; returns its id. */
export async function insertChunk(
  store: Store,
  sessionId: string,
  text: string,
  messageIds: number[],
  workspaceId = WS,
): Promise<number> {
  const row = await store.db
    .insertInto('chunks')
    .values({
      workspace_id: workspaceId,
      session_id: sessionId,
      text,
      salience_reason: 'test',
      message_ids: JSON.stringify(messageIds),
      first_message_id: Math.min(...messageIds),
      last_message_id: Math.max(...messageIds),
      occurred_at: daysAgo(2),
      created_at: daysAgo(2),
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return row.id
}

export async function insertEpisode(
  store: Store,
  episode: {
    id: string
    sessionId: string
    title: string
    summary: string
    outcome?: string
    messageIds?: number[]
  },
): Promise<void> {
  await store.db
    .insertInto('episodes')
    .values({
      id: episode.id,
      workspace_id: WS,
      session_id: episode.sessionId,
      title: episode.title,
      summary: episode.summary,
      outcome: episode.outcome ?? null,
      message_ids: JSON.stringify(episode.messageIds ?? []),
      started_at: daysAgo(3),
      ended_at: daysAgo(3),
      created_at: daysAgo(3),
      updated_at: daysAgo(3),
    })
    .execute()
}

export async function insertProcedure(
  store: Store,
  procedure: {
    id: string
    sessionId: string
    name: string
    description: string
    steps: unknown
    messageIds?: number[]
  },
): Promise<void> {
  const steps = Array.isArray(procedure.steps) ? procedure.steps : []
  await store.db
    .insertInto('procedures')
    .values({
      id: procedure.id,
      workspace_id: WS,
      session_id: procedure.sessionId,
      name: procedure.name,
      description: procedure.description,
      steps: typeof procedure.steps === 'string' ? procedure.steps : JSON.stringify(procedure.steps),
      steps_text: steps
        .map((s) => (typeof s === 'string' ? s : ((s as { text?: string }).text ?? '')))
        .join('\n'),
      message_ids: JSON.stringify(procedure.messageIds ?? []),
      created_at: daysAgo(3),
      updated_at: daysAgo(3),
    })
    .execute()
}

export async function insertNote(
  store: Store,
  note: {
    id: string
    description: string
    content: string
    importance?: number
    observedId?: string | null
    archived?: boolean
    sourceIds?: number[]
  },
): Promise<void> {
  await store.db
    .insertInto('notes')
    .values({
      id: note.id,
      workspace_id: WS,
      description: note.description,
      content: note.content,
      importance: note.importance ?? 1,
      observed_id: note.observedId ?? null,
      source_ids: JSON.stringify(note.sourceIds ?? []),
      created_at: daysAgo(10),
      updated_at: daysAgo(10),
      last_accessed_at: daysAgo(10),
      archived_at: note.archived ? daysAgo(1) : null,
    })
    .execute()
}

export async function insertEntityType(
  store: Store,
  entity: string,
  type: string,
  evidence = 1,
): Promise<void> {
  await store.db
    .insertInto('entity_types')
    .values({ workspace_id: WS, entity, type, evidence, updated_at: daysAgo(1) })
    .execute()
}

export async function insertAlias(store: Store, surface: string, canonical: string): Promise<void> {
  await store.db
    .insertInto('entity_aliases')
    .values({ workspace_id: WS, surface, canonical, created_at: daysAgo(1) })
    .execute()
}

/** Embeds texts and stores them in a vector index under their ids. */
export async function indexVectors(
  store: Store,
  embeddings: EmbeddingClient,
  index: 'chunks' | 'edges' | 'episodes' | 'notes',
  rows: { id: number | string; text: string }[],
): Promise<void> {
  const vectors = await embeddings.embed(rows.map((row) => row.text))
  await store.vectors.upsert(
    index,
    rows.map((row, i) => ({ id: row.id, workspaceId: WS, vector: vectors[i]!, textHash: row.text })),
    embeddings.model,
  )
}

/** Rows of the search log, oldest first. */
export async function searchLogRows(store: Store) {
  const { rows } = await sql<{
    surface: string
    query: string
    candidates: number
    hits: number
    top_score: number | null
    latency_ms: number
  }>`SELECT surface, query, candidates, hits, top_score, latency_ms FROM search_log ORDER BY id`.execute(
    store.db,
  )
  return rows
}
