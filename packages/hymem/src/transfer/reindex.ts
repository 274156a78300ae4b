import type { Store, VectorIndexName, VectorRow } from '@hymem/core-store'
import { edgeText, episodeText, messageText } from '@hymem/dreaming'
import type { EmbeddingClient } from '@hymem/extraction'
import { sql } from 'kysely'
import { HyMemError } from '../errors'
import { noteText } from '../notes/rows'
import { textHash } from '../text-hash'
import type { ReindexProgressEvent, ReindexReport } from './types'

const INDEXES: readonly VectorIndexName[] = ['chunks', 'edges', 'episodes', 'notes', 'messages']
/** Stored vectors per index, dropped and re-created by a reindex. */
const VECTOR_TABLES = [
  'chunk_embeddings',
  'edge_vectors',
  'episode_embeddings',
  'note_embeddings',
  'message_embeddings',
] as const
const BATCH = 128

interface Pending {
  readonly index: VectorIndexName
  readonly id: number | string
  readonly workspaceId: string
  readonly text: string
}

/**
 * Re-embeds every chunk, active current edge (as dreaming does), episode, note and embedded message with `embeddings`, then swaps all vector indexes to the
 * new model and dimension in ONE transaction: old vectors, pins and vec0 tables go, new ones come in. The
 * embedding calls happen before the transaction, so a provider failure leaves the store untouched.
 */
export async function reindexStore(
  store: Store,
  embeddings: EmbeddingClient | null,
  options: { onProgress?: (event: ReindexProgressEvent) => void; signal?: AbortSignal } = {},
): Promise<ReindexReport> {
  if (!embeddings) {
    throw new HyMemError(
      'CONFIG',
      'reindex needs an embedding client: set HYMEM_EMBEDDING_PROVIDER (local or openai-compatible)',
    )
  }
  const pending = await collect(store)
  const vectors = new Map<Pending, Float32Array>()
  for (const index of INDEXES) {
    const items = pending.filter((item) => item.index === index)
    for (let start = 0; start < items.length; start += BATCH) {
      if (options.signal?.aborted)
        throw new HyMemError('INVALID_INPUT', 'reindex aborted: nothing changed', {
          cause: options.signal.reason,
        })
      const batch = items.slice(start, start + BATCH)
      const out = await embeddings.embed(
        batch.map((item) => item.text),
        options.signal ? { signal: options.signal } : {},
      )
      batch.forEach((item, i) => {
        const vector = out[i]
        if (vector) vectors.set(item, vector)
      })
      options.onProgress?.({ index, done: Math.min(start + BATCH, items.length), total: items.length })
    }
  }
  const dimensions = [...vectors.values()][0]?.length ?? embeddings.dimensions ?? 0

  const previous: ReindexReport['previous'] = {}
  for (const index of INDEXES) previous[index] = await store.vectors.pinned(index)

  const written: Record<string, number> = {}
  await store.transaction(async (tx) => {
    for (const table of VECTOR_TABLES) await tx.db.deleteFrom(table).execute()
    await tx.db.deleteFrom('vector_indexes').execute()
    for (const index of INDEXES) {
      try {
        await sql`DROP TABLE IF EXISTS ${sql.table(`vec_${index}`)}`.execute(tx.db)
      } catch (error) {
        throw new HyMemError(
          'CONFIG',
          `cannot drop the vec_${index} index without the sqlite-vec extension; run reindex where sqlite-vec loads`,
          { cause: error },
        )
      }
    }
    for (const index of INDEXES) {
      const rows: VectorRow[] = []
      for (const item of pending) {
        const vector = vectors.get(item)
        if (item.index !== index || !vector) continue
        rows.push({ id: item.id, workspaceId: item.workspaceId, vector, textHash: textHash(item.text) })
      }
      for (let start = 0; start < rows.length; start += BATCH) {
        await tx.vectors.upsert(index, rows.slice(start, start + BATCH), embeddings.model)
      }
      if (index === 'edges') {
        const entries = pending.flatMap((item) => {
          const vector = vectors.get(item)
          return item.index === 'edges' && vector ? [{ text: item.text, vector }] : []
        })
        await tx.vectors.cacheTextVectors(embeddings.model, entries)
      }
      written[index] = rows.length
    }
  })
  return { model: embeddings.model, dimensions, vectors: written, previous }
}

async function collect(store: Store): Promise<Pending[]> {
  const { db } = store
  const pending: Pending[] = []
  for (const row of await db
    .selectFrom('chunks')
    .select(['id', 'workspace_id', 'text'])
    .orderBy('id')
    .execute()) {
    pending.push({ index: 'chunks', id: row.id, workspaceId: row.workspace_id, text: row.text })
  }
  for (const row of await db
    .selectFrom('knowledge_graph')
    .select(['id', 'workspace_id', 'subject', 'predicate', 'object'])
    .where('status', '=', 'active')
    .where('valid_to', 'is', null)
    .orderBy('id')
    .execute()) {
    pending.push({ index: 'edges', id: row.id, workspaceId: row.workspace_id, text: edgeText(row) })
  }
  for (const row of await db
    .selectFrom('episodes')
    .select(['id', 'workspace_id', 'title', 'summary'])
    .orderBy('id')
    .execute()) {
    pending.push({ index: 'episodes', id: row.id, workspaceId: row.workspace_id, text: episodeText(row) })
  }
  for (const row of await db
    .selectFrom('notes')
    .select(['id', 'workspace_id', 'description', 'content'])
    .orderBy('id')
    .execute()) {
    pending.push({
      index: 'notes',
      id: row.id,
      workspaceId: row.workspace_id,
      text: noteText(row.description, row.content),
    })
  }
  // Only messages dreaming already embedded: the others are its backlog, embedded by the next cycles.
  for (const row of await db
    .selectFrom('messages')
    .innerJoin('message_embeddings', 'message_embeddings.message_id', 'messages.id')
    .select(['messages.id', 'messages.workspace_id', 'messages.peer_id', 'messages.content'])
    .orderBy('messages.id')
    .execute()) {
    pending.push({
      index: 'messages',
      id: row.id,
      workspaceId: row.workspace_id,
      text: messageText({ peerId: row.peer_id, content: row.content }),
    })
  }
  return pending
}
