import { checkpoint, count, type RunContext } from '../run/context'
import { trimLogs } from './log-retention'

const DAY_MS = 86_400_000
/** Most chunks evicted by one cycle (keeps its id lists bounded). */
const MAX_EVICTIONS_PER_CYCLE = 10_000
/** Chunks deleted per transaction. */
const EVICTIONS_PER_TRANSACTION = 500

/**
 * Retention: while the workspace holds more than `maxChunks` chunks, evicts the oldest processed chunks that
 * are older than `retentionDays`, but never the last chunk evidencing an active edge (the graph keeps its
 * provenance). Evidence keeps its message ids when its chunk goes. The victims are chosen first, then deleted
 * in short transactions (any subset of them is safe to delete: each edge keeps a chunk outside the set).
 * Then the search log and the LLM cache are trimmed to their bounds.
 */
export async function applyRetention(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const cutoff = new Date(store.context.clock().getTime() - config.retentionDays * DAY_MS).toISOString()
  const victims = await chooseVictims(ctx, cutoff)
  for (let at = 0; at < victims.length; at += EVICTIONS_PER_TRANSACTION) {
    const batch = victims.slice(at, at + EVICTIONS_PER_TRANSACTION)
    await store.transaction(async (tx) => {
      await tx.vectors.remove('chunks', workspaceId, batch)
      await tx.chunks.delete(workspaceId, batch)
    })
    await checkpoint(ctx)
  }
  count(ctx, 'chunksEvicted', victims.length)
  await trimLogs(ctx)
}

/** The oldest processed chunks past the cutoff to evict, never the last chunk evidencing an active edge. */
async function chooseVictims(ctx: RunContext, cutoff: string): Promise<number[]> {
  const { store, workspaceId, config } = ctx
  const excess = Math.min((await store.chunks.count(workspaceId)) - config.maxChunks, MAX_EVICTIONS_PER_CYCLE)
  if (excess <= 0) return []
  const candidates = await store.chunks.listEvictable(workspaceId, cutoff)
  if (candidates.length === 0) return []
  const chunksOfEdge = new Map<number, Set<number>>()
  const edgesOfChunk = new Map<number, number[]>()
  for (const { edgeId, chunkId } of await store.evidence.listActiveSupport(workspaceId)) {
    chunksOfEdge.set(edgeId, (chunksOfEdge.get(edgeId) ?? new Set()).add(chunkId))
    edgesOfChunk.set(chunkId, [...(edgesOfChunk.get(chunkId) ?? []), edgeId])
  }
  const victims: number[] = []
  for (const id of candidates) {
    if (victims.length >= excess) break
    const edges = edgesOfChunk.get(id) ?? []
    if (edges.some((e) => (chunksOfEdge.get(e)?.size ?? 0) <= 1)) continue
    for (const e of edges) chunksOfEdge.get(e)?.delete(id)
    victims.push(id)
  }
  return victims
}
