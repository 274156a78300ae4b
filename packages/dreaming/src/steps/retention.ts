import { count, type RunContext } from '../run/context'

const DAY_MS = 86_400_000

/**
 * Retention: while the workspace holds more than `maxChunks` chunks, evicts the oldest processed chunks that
 * are older than `retentionDays`, except any chunk that is the only chunk evidencing an active edge (the
 * graph keeps its provenance). Evidence keeps its message ids when its chunk goes. One transaction.
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
    const excess = Number(total.n) - config.maxChunks
    if (excess <= 0) return 0
    const sole = tx.db
      .selectFrom('kg_evidence as ev')
      .innerJoin('knowledge_graph as kg', 'kg.id', 'ev.edge_id')
      .select('ev.chunk_id')
      .where('kg.workspace_id', '=', workspaceId)
      .where('kg.status', '=', 'active')
      .where('ev.polarity', '=', 1)
      .where('ev.chunk_id', 'is not', null)
      .where(({ not, exists, selectFrom }) =>
        not(
          exists(
            selectFrom('kg_evidence as other')
              .select('other.id')
              .whereRef('other.edge_id', '=', 'ev.edge_id')
              .whereRef('other.chunk_id', '!=', 'ev.chunk_id')
              .where('other.polarity', '=', 1),
          ),
        ),
      )
    const victims = await tx.db
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
      .where('id', 'not in', sole)
      .orderBy('occurred_at')
      .orderBy('id')
      .limit(Math.min(excess, 10_000))
      .execute()
    if (victims.length === 0) return 0
    const ids = victims.map((v) => v.id)
    await tx.vectors.remove('chunks', ids)
    await tx.db.deleteFrom('chunks').where('id', 'in', ids).execute()
    return ids.length
  })
  count(ctx, 'chunksEvicted', evicted)
}
