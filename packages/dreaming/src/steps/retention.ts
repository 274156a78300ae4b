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
    const total = await tx.db
      .selectFrom('chunks')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .executeTakeFirstOrThrow()
    const excess = Math.min(Number(total.n) - config.maxChunks, MAX_EVICTIONS_PER_CYCLE)
    if (excess <= 0) return 0
    const candidates = await tx.db
      .selectFrom('chunks')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where('occurred_at', '<', cutoff)
      .where(({ exists, selectFrom }) =>
        exists(
          selectFrom('processed_chunks')
            .select('chunk_id')
            .whereRef('processed_chunks.chunk_id', '=', 'chunks.id'),
        ),
      )
      .orderBy('occurred_at')
      .orderBy('id')
      .execute()
    if (candidates.length === 0) return 0
    const evidence = await tx.db
      .selectFrom('kg_evidence as ev')
      .innerJoin('knowledge_graph as kg', 'kg.id', 'ev.edge_id')
      .select(['ev.edge_id', 'ev.chunk_id'])
      .distinct()
      .where('kg.workspace_id', '=', workspaceId)
      .where('kg.status', '=', 'active')
      .where('ev.polarity', '=', 1)
      .where('ev.chunk_id', 'is not', null)
      .execute()
    const chunksOfEdge = new Map<number, Set<number>>()
    const edgesOfChunk = new Map<number, number[]>()
    for (const { edge_id, chunk_id } of evidence) {
      const chunk = chunk_id!
      chunksOfEdge.set(edge_id, (chunksOfEdge.get(edge_id) ?? new Set()).add(chunk))
      edgesOfChunk.set(chunk, [...(edgesOfChunk.get(chunk) ?? []), edge_id])
    }
    const victims: number[] = []
    for (const { id } of candidates) {
      if (victims.length >= excess) break
      const edges = edgesOfChunk.get(id) ?? []
      if (edges.some((e) => (chunksOfEdge.get(e)?.size ?? 0) <= 1)) continue
      for (const e of edges) chunksOfEdge.get(e)?.delete(id)
      victims.push(id)
    }
    if (victims.length === 0) return 0
    await tx.vectors.remove('chunks', victims)
    await tx.db.deleteFrom('chunks').where('id', 'in', victims).execute()
    return victims.length
  })
  count(ctx, 'chunksEvicted', evicted)
}
