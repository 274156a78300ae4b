import { count, type RunContext } from '../run/context'
import { recount } from './confidence'
import { backfillMentions } from './mentions'

const DAY_MS = 86_400_000

/**
 * Phase 3 co-occurrence-aware decay. An active direct edge not reinforced within the decay window loses
 * confidence only when a processed chunk inside the window mentions its subject or object without
 * evidencing it. Each such (edge, chunk) pair is recorded once as a `decay` evidence row (polarity -1,
 * unique per edge and chunk), so dreaming again over the same data changes nothing. Edges whose Laplace
 * confidence falls below `retractThreshold` are retracted and recorded as extraction feedback.
 * One transaction.
 */
export async function decayEdges(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const now = store.context.now()
  const since = new Date(store.context.clock().getTime() - config.decayWindowDays * DAY_MS).toISOString()
  const stats = await store.transaction(async (tx) => {
    const candidates = await tx.db
      .selectFrom('knowledge_graph')
      .select(['id', 'subject', 'predicate', 'object'])
      .where('workspace_id', '=', workspaceId)
      .where('status', '=', 'active')
      .where('derived', '=', 0)
      .where('last_reinforced', '<', since)
      .orderBy('id')
      .execute()
    let marks = 0
    const touched = new Set<number>()
    if (candidates.length > 0) {
      const entities = [...new Set(candidates.flatMap((e) => [e.subject, e.object]))]
      await backfillMentions(tx, workspaceId, entities, since)
    }
    for (const edge of candidates) {
      const chunks = await tx.db
        .selectFrom('entity_mentions')
        .innerJoin('chunks', 'chunks.id', 'entity_mentions.chunk_id')
        .select(['chunks.id', 'chunks.message_ids', 'chunks.occurred_at'])
        .distinct()
        .where('entity_mentions.workspace_id', '=', workspaceId)
        .where('entity_mentions.entity', 'in', [edge.subject, edge.object])
        .where('chunks.occurred_at', '>=', since)
        .where(({ exists, selectFrom }) =>
          exists(
            selectFrom('processed_chunks')
              .select('chunk_id')
              .whereRef('processed_chunks.chunk_id', '=', 'chunks.id'),
          ),
        )
        .where(({ not, exists, selectFrom }) =>
          not(
            exists(
              selectFrom('kg_evidence')
                .select('kg_evidence.id')
                .whereRef('kg_evidence.chunk_id', '=', 'chunks.id')
                .where('kg_evidence.edge_id', '=', edge.id),
            ),
          ),
        )
        .orderBy('chunks.id')
        .execute()
      for (const chunk of chunks) {
        const result = await tx.db
          .insertInto('kg_evidence')
          .values({
            workspace_id: workspaceId,
            edge_id: edge.id,
            chunk_id: chunk.id,
            message_ids: chunk.message_ids,
            polarity: -1,
            source: 'decay',
            evidence_text: 'mentioned without restating the fact',
            prompt_version: null,
            observed_at: chunk.occurred_at,
            created_at: now,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        if (Number(result.numInsertedOrUpdatedRows ?? 0) === 1) {
          marks++
          touched.add(edge.id)
        }
      }
    }
    let retracted = 0
    for (const id of touched) {
      const { confidence } = await recount(tx, id)
      if (confidence >= config.retractThreshold) continue
      const edge = candidates.find((c) => c.id === id)!
      await tx.db.updateTable('knowledge_graph').set({ status: 'retracted' }).where('id', '=', id).execute()
      const source = await tx.db
        .selectFrom('kg_evidence')
        .innerJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
        .select('chunks.text')
        .where('kg_evidence.edge_id', '=', id)
        .where('kg_evidence.polarity', '=', 1)
        .orderBy('kg_evidence.observed_at', 'desc')
        .limit(1)
        .executeTakeFirst()
      await tx.db
        .insertInto('extraction_feedback')
        .values({
          workspace_id: workspaceId,
          subject: edge.subject,
          predicate: edge.predicate,
          object: edge.object,
          chunk_text: source?.text ?? null,
          reason: `decay: confidence ${confidence.toFixed(2)} fell below ${config.retractThreshold}`,
          created_at: now,
        })
        .execute()
      retracted++
    }
    return { candidates: candidates.length, marks, retracted }
  })
  count(ctx, 'decayCandidates', stats.candidates)
  count(ctx, 'softContradictions', stats.marks)
  count(ctx, 'edgesRetracted', stats.retracted)
}
