import type { VectorIndexName } from '@hymem/core-store'
import type { EmbeddingClient } from '@hymem/extraction'
import { callOptions, checkAbort, checkpoint, count, errorText, type RunContext } from '../run/context'
import { embedMessages } from './embed-messages'
import { embedPassages } from './embed-passages'
import { textHash } from './ids'

/** Vector rows written or removed per transaction (each batch commits on its own). */
const VECTOR_ROWS_PER_TRANSACTION = 256

interface Item {
  id: number | string
  text: string
}

/** The text an edge is embedded as (and the key of the cross-edge vector cache). */
export function edgeText(edge: { subject: string; predicate: string; object: string }): string {
  return `${edge.subject} ${edge.predicate} ${edge.object}`
}

/** The text an episode is embedded as. */
export function episodeText(episode: { title: string; summary: string }): string {
  return `${episode.title}\n${episode.summary}`
}

/**
 * Embeds chunks, active edges (base and derived) and episodes whose text is new or changed, and messages
 * and passages without a vector (see {@link embedMessages}, {@link embedPassages}); texts with a stored vector of the same hash cost nothing, and
 * edge vectors are reused across edge ids through the triple-text cache. Skipped without an embedding client. Each index failing (e.g. a model change that
 * needs a re-index) is reported and does not stop the others.
 */
export async function embedAll(ctx: RunContext): Promise<void> {
  const client = ctx.embeddings
  if (!client) {
    count(ctx, 'embeddingsSkipped')
    return
  }
  const { store, workspaceId } = ctx
  const jobs: [VectorIndexName, () => Promise<number>][] = [
    ['chunks', async () => embedIndex(ctx, client, 'chunks', await store.chunks.listUnembedded(workspaceId))],
    [
      'episodes',
      async () => {
        const episodes = await store.episodes.listAll(workspaceId)
        return embedIndex(
          ctx,
          client,
          'episodes',
          episodes.map((e) => ({ id: e.id, text: episodeText(e) })),
        )
      },
    ],
    ['edges', () => embedEdges(ctx, client)],
    ['messages', () => embedMessages(ctx, client)],
    ['passages', () => embedPassages(ctx, client)],
  ]
  for (const [name, job] of jobs) {
    checkAbort(ctx)
    try {
      count(ctx, `embedded_${name}`, await job())
    } catch (error) {
      if (ctx.signal?.aborted) throw error
      ctx.tally.errors.push(`embed ${name}: ${errorText(error)}`)
    }
  }
}

/** Embeds the items whose stored text hash differs (or is missing), in batches. Returns texts embedded. */
async function embedIndex(
  ctx: RunContext,
  client: EmbeddingClient,
  index: VectorIndexName,
  items: readonly Item[],
): Promise<number> {
  if (items.length === 0) return 0
  const known = await ctx.store.vectors.textHashes(
    index,
    ctx.workspaceId,
    items.map((i) => i.id),
  )
  const todo = items.filter((i) => known.get(i.id) !== textHash(i.text))
  for (let at = 0; at < todo.length; at += ctx.config.embedBatchSize) {
    checkAbort(ctx)
    const batch = todo.slice(at, at + ctx.config.embedBatchSize)
    const vectors = await client.embed(
      batch.map((i) => i.text),
      callOptions(ctx),
    )
    await ctx.store.vectors.upsert(
      index,
      batch.map((item, k) => ({
        id: item.id,
        workspaceId: ctx.workspaceId,
        vector: vectors[k]!,
        textHash: textHash(item.text),
      })),
      client.model,
    )
    await checkpoint(ctx)
  }
  return todo.length
}

/** Active edges, keyed on triple text: cached texts are reused, only new texts reach the client. */
async function embedEdges(ctx: RunContext, client: EmbeddingClient): Promise<number> {
  const { store, workspaceId } = ctx
  const edges = await store.edges.listAll(workspaceId)
  const inactive = edges.filter((e) => e.status !== 'active' || e.validTo !== null).map((e) => e.id)
  const active = edges.filter((e) => e.status === 'active' && e.validTo === null)
  if (inactive.length > 0) {
    const indexed = [...(await store.vectors.textHashes('edges', workspaceId, inactive)).keys()]
    for (let at = 0; at < indexed.length; at += VECTOR_ROWS_PER_TRANSACTION) {
      await store.vectors.remove('edges', workspaceId, indexed.slice(at, at + VECTOR_ROWS_PER_TRANSACTION))
      await checkpoint(ctx)
    }
  }
  const known = await store.vectors.textHashes(
    'edges',
    workspaceId,
    active.map((e) => e.id),
  )
  const todo = active.filter((e) => known.get(e.id) !== textHash(edgeText(e)))
  if (todo.length === 0) return 0
  const texts = [...new Set(todo.map(edgeText))]
  const cached = await store.vectors.cachedTextVectors(client.model, texts)
  const missing = texts.filter((t) => !cached.has(t))
  for (let at = 0; at < missing.length; at += ctx.config.embedBatchSize) {
    checkAbort(ctx)
    const batch = missing.slice(at, at + ctx.config.embedBatchSize)
    const vectors = await client.embed(batch, callOptions(ctx))
    const entries = batch.map((text, k) => ({ text, vector: vectors[k]! }))
    await store.vectors.cacheTextVectors(client.model, entries)
    for (const e of entries) cached.set(e.text, e.vector)
  }
  for (let at = 0; at < todo.length; at += VECTOR_ROWS_PER_TRANSACTION) {
    await store.vectors.upsert(
      'edges',
      todo.slice(at, at + VECTOR_ROWS_PER_TRANSACTION).map((e) => ({
        id: e.id,
        workspaceId,
        vector: cached.get(edgeText(e))!,
        textHash: textHash(edgeText(e)),
      })),
      client.model,
    )
    await checkpoint(ctx)
  }
  return missing.length
}
