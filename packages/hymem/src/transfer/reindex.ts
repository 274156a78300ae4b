import { type Store, StoreError, type VectorIndexName, type VectorRow } from '@hymem/core-store'
import { edgeText, episodeText, messageText } from '@hymem/dreaming'
import type { EmbeddingClient } from '@hymem/extraction'
import { HyMemError } from '../errors'
import { noteText } from '../notes/note-text'
import { textHash } from '../text-hash'
import { isActiveCurrent } from './embed-imported'
import type { ReindexProgressEvent, ReindexReport } from './types'

const INDEXES: readonly VectorIndexName[] = ['chunks', 'edges', 'episodes', 'notes', 'messages']
const BATCH = 128

interface Pending {
  readonly index: VectorIndexName
  readonly id: number | string
  readonly workspaceId: string
  readonly text: string
}

type ReindexOptions = { onProgress?: (event: ReindexProgressEvent) => void; signal?: AbortSignal }

/**
 * Rebuilds the full-text index of every table, then (with an embedding client) re-embeds every chunk,
 * active current edge (as dreaming does), episode, note and embedded message and swaps all vector indexes
 * to the new model and dimension in ONE transaction: old vectors and pins go, new ones come in. The
 * embedding calls happen before that transaction, so a provider failure leaves the vectors untouched.
 */
export async function reindexStore(
  store: Store,
  embeddings: EmbeddingClient | null,
  options: ReindexOptions = {},
): Promise<ReindexReport> {
  checkNotAborted(options.signal)
  const fullText = await store.fullText.rebuild((event) =>
    options.onProgress?.({ phase: 'full-text', index: event.table, done: event.done, total: event.total }),
  )
  if (!embeddings) return { fullText, model: null, dimensions: 0, vectors: {}, previous: {} }
  return { fullText, ...(await reembed(store, embeddings, options)) }
}

function checkNotAborted(signal: AbortSignal | undefined): void {
  if (signal?.aborted)
    throw new HyMemError('INVALID_INPUT', 'reindex aborted: nothing changed', { cause: signal.reason })
}

async function reembed(
  store: Store,
  embeddings: EmbeddingClient,
  options: ReindexOptions,
): Promise<Omit<ReindexReport, 'fullText'>> {
  const pending = await collect(store)
  const vectors = new Map<Pending, Float32Array>()
  for (const index of INDEXES) {
    const items = pending.filter((item) => item.index === index)
    for (let start = 0; start < items.length; start += BATCH) {
      checkNotAborted(options.signal)
      const batch = items.slice(start, start + BATCH)
      const out = await embeddings.embed(
        batch.map((item) => item.text),
        options.signal ? { signal: options.signal } : {},
      )
      batch.forEach((item, i) => {
        const vector = out[i]
        if (vector) vectors.set(item, vector)
      })
      options.onProgress?.({
        phase: 'vectors',
        index,
        done: Math.min(start + BATCH, items.length),
        total: items.length,
      })
    }
  }
  const dimensions = [...vectors.values()][0]?.length ?? embeddings.dimensions ?? 0

  const previous: ReindexReport['previous'] = {}
  for (const index of INDEXES) previous[index] = await store.vectors.pinned(index)

  const written: Record<string, number> = {}
  await store.transaction(async (tx) => {
    try {
      await tx.vectors.reset()
    } catch (error) {
      if (error instanceof StoreError && error.code === 'VECTOR_UNAVAILABLE')
        throw new HyMemError('CONFIG', error.message, { cause: error })
      throw error
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
  const pending: Pending[] = []
  for (const { id: workspaceId } of await store.workspaces.listAll()) {
    for (const chunk of await store.chunks.listAll(workspaceId))
      pending.push({ index: 'chunks', id: chunk.id, workspaceId, text: chunk.text })
    for (const edge of await store.edges.listAll(workspaceId)) {
      if (isActiveCurrent(edge))
        pending.push({ index: 'edges', id: edge.id, workspaceId, text: edgeText(edge) })
    }
    for (const episode of await store.episodes.listAll(workspaceId))
      pending.push({ index: 'episodes', id: episode.id, workspaceId, text: episodeText(episode) })
    for await (const note of store.notes.iterate(workspaceId)) {
      pending.push({
        index: 'notes',
        id: note.id,
        workspaceId,
        text: noteText(note.description, note.content),
      })
    }
    // Only messages dreaming already embedded: the others are its backlog, embedded by the next cycles.
    for (let afterId = 0; ; ) {
      const page = await store.messages.listEmbedded(workspaceId, { afterId, limit: 1000 })
      if (page.length === 0) break
      for (const message of page)
        pending.push({ index: 'messages', id: message.id, workspaceId, text: messageText(message) })
      afterId = page[page.length - 1]!.id
    }
  }
  return pending
}
