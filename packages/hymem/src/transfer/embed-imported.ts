import type { Edge, Store } from '@hymem/core-store'
import { edgeText } from '@hymem/dreaming'
import type { EmbeddingClient } from '@hymem/extraction'
import { noteText } from '../notes/rows'
import { textHash } from '../text-hash'

const BATCH = 128

/** Embeds the given notes now (import, and notes saved while embeddings failed). */
export async function embedNotes(
  store: Store,
  embeddings: EmbeddingClient,
  ids: readonly string[],
): Promise<number> {
  let embedded = 0
  for (let start = 0; start < ids.length; start += BATCH) {
    const notes = await store.notes.getByIds(ids.slice(start, start + BATCH))
    if (notes.length === 0) continue
    const texts = notes.map((note) => noteText(note.description, note.content))
    const vectors = await embeddings.embed(texts)
    await store.vectors.upsert(
      'notes',
      notes.flatMap((note, i) => {
        const vector = vectors[i]
        const text = texts[i] ?? ''
        return vector
          ? [{ id: note.id, workspaceId: note.workspaceId, vector, textHash: textHash(text) }]
          : []
      }),
      embeddings.model,
    )
    embedded += notes.length
  }
  return embedded
}

/**
 * Embeds imported edges that are active and current (the ones dreaming indexes), reusing vectors cached by
 * triple text, so the graph ranker's semantic branch works before the next dream.
 */
export async function embedEdges(
  store: Store,
  embeddings: EmbeddingClient,
  ids: readonly number[],
): Promise<number> {
  let embedded = 0
  for (let start = 0; start < ids.length; start += BATCH) {
    const edges = (await store.edges.getByIds(ids.slice(start, start + BATCH))).filter(isActiveCurrent)
    if (edges.length === 0) continue
    const texts = [...new Set(edges.map(edgeText))]
    const cached = await store.vectors.cachedTextVectors(embeddings.model, texts)
    const missing = texts.filter((text) => !cached.has(text))
    if (missing.length > 0) {
      const vectors = await embeddings.embed(missing)
      const entries = missing.flatMap((text, i) => {
        const vector = vectors[i]
        return vector ? [{ text, vector }] : []
      })
      await store.vectors.cacheTextVectors(embeddings.model, entries)
      for (const entry of entries) cached.set(entry.text, entry.vector)
      embedded += entries.length
    }
    await store.vectors.upsert(
      'edges',
      edges.flatMap((edge) => {
        const vector = cached.get(edgeText(edge))
        return vector
          ? [{ id: edge.id, workspaceId: edge.workspaceId, vector, textHash: textHash(edgeText(edge)) }]
          : []
      }),
      embeddings.model,
    )
  }
  return embedded
}

/** The edges dreaming embeds: active and not superseded. */
export function isActiveCurrent(edge: Edge): boolean {
  return edge.status === 'active' && edge.validTo === null
}
