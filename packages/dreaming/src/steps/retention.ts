import { count, type RunContext } from '../run/context'

const DAY_MS = 86_400_000
/** Most chunks evicted by one cycle (keeps the transaction and its id lists bounded). */
const MAX_EVICTIONS_PER_CYCLE = 10_000

/**
 * Retention: while the workspace holds more than `maxChunks` chunks, evicts the oldest processed chunks that
 * are older than `retentionDays`, but never the last chunk evidencing an active edge (the graph keeps its
 * provenance). Evidence keeps its message ids when its chunk goes. One transaction.
 */
export async function applyRetention(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const cutoff = new Date(store.context.clock().getTime() - config.retentionDays * DAY_MS).toISOString()
  const evicted = await store.transaction(async (tx) => {
    const excess = Math.min((await tx.chunks.count(workspaceId)) - config.maxChunks, MAX_EVICTIONS_PER_CYCLE)
    if (excess <= 0) return 0
    const candidates = await tx.chunks.listEvictable(workspaceId, cutoff)
    if (candidates.length === 0) return 0
    const chunksOfEdge = new Map<number, Set<number>>()
    const edgesOfChunk = new Map<number, number[]>()
    for (const { edgeId, chunkId } of await tx.evidence.listActiveSupport(workspaceId)) {
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
    if (victims.length === 0) return 0
    await tx.vectors.remove('chunks', victims)
    await tx.chunks.delete(workspaceId, victims)
    return victims.length
  })
  count(ctx, 'chunksEvicted', evicted)
}
