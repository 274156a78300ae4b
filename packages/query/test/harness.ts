import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { addAlias, type NewProcedure, openStore, type Store, type VectorIndexName } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'

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
  /** The edge that superseded this one. */
  supersededBy?: number
  /** Evidence rows: their own message ids and/or a chunk. */
  evidence?: { messageIds?: number[]; chunkId?: number }[]
  workspaceId?: string
}

/** Inserts an edge (and its evidence) as given; returns its id. */
export async function insertEdge(store: Store, edge: EdgeInput): Promise<number> {
  const workspaceId = edge.workspaceId ?? WS
  const seen = edge.lastSeen ?? daysAgo(1)
  const { id } = await store.edges.insert(workspaceId, {
    subject: edge.subject,
    predicate: edge.predicate,
    object: edge.object,
    posEvidence: edge.pos ?? 1,
    negEvidence: edge.neg ?? 0,
    confidence: edge.confidence ?? 0.8,
    status: edge.status ?? 'active',
    derived: edge.derived ?? false,
    seenAt: seen,
    validFrom: edge.validFrom ?? seen,
    validTo: edge.validTo ?? null,
  })
  if (edge.supersededBy !== undefined) await store.edges.setSupersededBy(workspaceId, id, edge.supersededBy)
  for (const evidence of edge.evidence ?? []) {
    await store.evidence.add(workspaceId, {
      edgeId: id,
      chunkId: evidence.chunkId ?? null,
      messageIds: evidence.messageIds ?? [],
      observedAt: seen,
    })
  }
  return id
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
  const chunk = await store.chunks.insertIfNew(workspaceId, {
    sessionId,
    text,
    salienceReason: 'test',
    messageIds,
    occurredAt: daysAgo(2),
  })
  if (!chunk) throw new Error(`a chunk over messages ${messageIds.join(', ')} already exists`)
  return chunk.id
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
  await store.episodes.upsert(WS, {
    id: episode.id,
    sessionId: episode.sessionId,
    title: episode.title,
    summary: episode.summary,
    outcome: episode.outcome ?? null,
    messageIds: episode.messageIds ?? [],
    startedAt: daysAgo(3),
  })
}

export async function insertProcedure(
  store: Store,
  procedure: {
    id: string
    sessionId: string
    name: string
    description: string
    steps: NewProcedure['steps']
    messageIds?: number[]
  },
): Promise<void> {
  await store.procedures.upsert(WS, {
    id: procedure.id,
    sessionId: procedure.sessionId,
    name: procedure.name,
    description: procedure.description,
    steps: procedure.steps,
    messageIds: procedure.messageIds ?? [],
  })
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
  await store.notes.insert(WS, {
    id: note.id,
    description: note.description,
    content: note.content,
    importance: note.importance ?? 1,
    observedId: note.observedId ?? null,
    sourceIds: note.sourceIds ?? [],
    createdAt: daysAgo(10),
    archivedAt: note.archived ? daysAgo(1) : null,
  })
}

export async function insertEntityType(
  store: Store,
  entity: string,
  type: string,
  evidence = 1,
): Promise<void> {
  await store.entityTypes.set(WS, { entity, type, evidence })
}

export async function insertAlias(store: Store, surface: string, canonical: string): Promise<void> {
  await addAlias(store, { workspaceId: WS, surface, canonical })
}

/** Embeds texts and stores them in a vector index under their ids. */
export async function indexVectors(
  store: Store,
  embeddings: EmbeddingClient,
  index: VectorIndexName,
  rows: { id: number | string; text: string }[],
): Promise<void> {
  const vectors = await embeddings.embed(rows.map((row) => row.text))
  await store.vectors.upsert(
    index,
    rows.map((row, i) => ({ id: row.id, workspaceId: WS, vector: vectors[i]!, textHash: row.text })),
    embeddings.model,
  )
}

/**
 * An embedder with chosen vectors: each text in `vectors` gets its vector, any other text `fallback` (so a
 * test decides every similarity). Vectors are used as given; pass unit vectors for cosine = dot product.
 */
export function fixedEmbeddings(
  vectors: Readonly<Record<string, readonly number[]>>,
  fallback: readonly number[],
): EmbeddingClient {
  return {
    name: 'test:fixed',
    model: 'test-fixed',
    dimensions: fallback.length,
    embed: async (texts) => texts.map((text) => Float32Array.from(vectors[text] ?? fallback)),
  }
}

/** The workspace's search log, oldest first. */
export function searchLogRows(store: Store) {
  return store.searchLog.list(WS)
}
