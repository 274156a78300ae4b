import type { Edge, Store, VectorIndexName } from '@hymem/core-store'
import { edgeText, episodeText, messageText } from '@hymem/dreaming'
import type { EmbeddingClient } from '@hymem/extraction'
import { noteText } from '../notes/note-text'
import { textHash } from '../text-hash'

const BATCH = 128

/**
 * Embeds the rows an import wrote without a vector: notes, edges (sharing vectors by triple text), chunks
 * episodes and messages, with the configured model. Returns the texts embedded.
 */
export async function embedUnembedded(
  store: Store,
  embeddings: EmbeddingClient,
  rows: Readonly<Record<VectorIndexName, readonly { workspaceId: string; id: number | string }[]>>,
): Promise<number> {
  let embedded = await embedNotes(store, embeddings, rows.notes as { workspaceId: string; id: string }[])
  embedded += await embedEdges(
    store,
    embeddings,
    rows.edges.map((row) => ({ workspaceId: row.workspaceId, id: row.id as number })),
  )
  embedded += await embedTexts(store, embeddings, 'chunks', rows.chunks, async (workspaceId, ids) =>
    (await store.chunks.getByIds(workspaceId, ids as number[])).map((c) => ({ id: c.id, text: c.text })),
  )
  embedded += await embedTexts(store, embeddings, 'episodes', rows.episodes, async (workspaceId, ids) =>
    (await store.episodes.getByIds(workspaceId, ids as string[])).map((e) => ({
      id: e.id,
      text: episodeText(e),
    })),
  )
  embedded += await embedTexts(store, embeddings, 'messages', rows.messages, async (workspaceId, ids) =>
    (await store.messages.findByIds(workspaceId, ids as number[])).map((m) => ({
      id: m.id,
      text: messageText(m),
    })),
  )
  return embedded
}

/** Embeds rows of an index by the text `read` gives them, a batch at a time per workspace. */
async function embedTexts(
  store: Store,
  embeddings: EmbeddingClient,
  index: VectorIndexName,
  refs: readonly { workspaceId: string; id: number | string }[],
  read: (
    workspaceId: string,
    ids: readonly (number | string)[],
  ) => Promise<{ id: number | string; text: string }[]>,
): Promise<number> {
  const byWorkspace = new Map<string, (number | string)[]>()
  for (const { workspaceId, id } of refs)
    byWorkspace.set(workspaceId, [...(byWorkspace.get(workspaceId) ?? []), id])
  let embedded = 0
  for (const [workspaceId, ids] of byWorkspace) {
    for (let start = 0; start < ids.length; start += BATCH) {
      const items = await read(workspaceId, ids.slice(start, start + BATCH))
      if (items.length === 0) continue
      const vectors = await embeddings.embed(items.map((item) => item.text))
      await store.vectors.upsert(
        index,
        items.flatMap((item, i) => {
          const vector = vectors[i]
          return vector ? [{ id: item.id, workspaceId, vector, textHash: textHash(item.text) }] : []
        }),
        embeddings.model,
      )
      embedded += items.length
    }
  }
  return embedded
}

/** Embeds the given notes now (import, and notes saved while embeddings failed), archived ones too. */
async function embedNotes(
  store: Store,
  embeddings: EmbeddingClient,
  refs: readonly { workspaceId: string; id: string }[],
): Promise<number> {
  let embedded = 0
  for (const [workspaceId, ids] of byWorkspace(refs)) {
    for (let start = 0; start < ids.length; start += BATCH) {
      const notes = await store.notes.getByIds(workspaceId, ids.slice(start, start + BATCH), {
        includeArchived: true,
      })
      if (notes.length === 0) continue
      const texts = notes.map((note) => noteText(note.description, note.content))
      const vectors = await embeddings.embed(texts)
      await store.vectors.upsert(
        'notes',
        notes.flatMap((note, i) => {
          const vector = vectors[i]
          const text = texts[i] ?? ''
          return vector ? [{ id: note.id, workspaceId, vector, textHash: textHash(text) }] : []
        }),
        embeddings.model,
      )
      embedded += notes.length
    }
  }
  return embedded
}

/**
 * Embeds imported edges that are active and current (the ones dreaming indexes), reusing vectors cached by
 * triple text, so the graph ranker's semantic branch works before the next dream.
 */
async function embedEdges(
  store: Store,
  embeddings: EmbeddingClient,
  refs: readonly { workspaceId: string; id: number }[],
): Promise<number> {
  let embedded = 0
  const batches = [...byWorkspace(refs)].flatMap(([workspaceId, ids]) =>
    Array.from({ length: Math.ceil(ids.length / BATCH) }, (_, i) => ({
      workspaceId,
      ids: ids.slice(i * BATCH, (i + 1) * BATCH),
    })),
  )
  for (const batch of batches) {
    const edges = (await store.edges.getByIds(batch.workspaceId, batch.ids)).filter(isActiveCurrent)
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

function byWorkspace<T>(refs: readonly { workspaceId: string; id: T }[]): Map<string, T[]> {
  const out = new Map<string, T[]>()
  for (const { workspaceId, id } of refs) {
    const ids = out.get(workspaceId)
    if (ids) ids.push(id)
    else out.set(workspaceId, [id])
  }
  return out
}
