import type { StoreScope } from '@hymem/core-store'
import { checkpoint, count, type RunContext } from '../run/context'
import { recount } from './confidence'
import { findMentions, indexMentions } from './mentions'

const DAY_MS = 86_400_000
const INSERT_BATCH = 500
/** Chunks whose mentions are indexed per transaction. */
const CHUNKS_PER_TRANSACTION = 200
/** Edges whose decay marks, counters and retraction commit together, per transaction. */
const EDGES_PER_TRANSACTION = 100

/**
 * Phase 3 co-occurrence-aware decay. An active direct edge not reinforced within the decay window loses
 * confidence only when a processed chunk inside the window mentions its subject or object without
 * evidencing it. Each such (edge, chunk) pair is recorded once as a `decay` evidence row (polarity -1,
 * unique per edge and chunk), so dreaming again over the same data changes nothing. Edges whose Laplace
 * confidence falls below `retractThreshold` are retracted and recorded as extraction feedback.
 *
 * Mentions are scanned outside any transaction and indexed in short transactions; then each group of edges
 * gets its marks, counters and retractions in one transaction (a crash leaves whole edges done, and the
 * next cycle finds the rest, since marks are unique per edge and chunk).
 */
export async function decayEdges(ctx: RunContext): Promise<void> {
  const { store, workspaceId, config } = ctx
  const now = store.context.now()
  const since = new Date(store.context.clock().getTime() - config.decayWindowDays * DAY_MS).toISOString()
  const stale = await store.db
    .selectFrom('knowledge_graph')
    .select(['subject', 'object'])
    .where('workspace_id', '=', workspaceId)
    .where('status', '=', 'active')
    .where('derived', '=', 0)
    .where('last_reinforced', '<', since)
    .execute()
  count(ctx, 'decayCandidates', stale.length)
  if (stale.length === 0) return
  const mentions = await findMentions(
    store.db,
    workspaceId,
    new Set(stale.flatMap((e) => [e.subject, e.object])),
    since,
  )
  const mentioned = [...mentions]
  for (let at = 0; at < mentioned.length; at += CHUNKS_PER_TRANSACTION) {
    await store.transaction(async (tx) => {
      for (const [chunkId, entities] of mentioned.slice(at, at + CHUNKS_PER_TRANSACTION))
        await indexMentions(tx, workspaceId, chunkId, entities)
    })
    await checkpoint(ctx)
  }
  const pairs = await softContradictions(store, workspaceId, since)
  const edges = [...new Set(pairs.map((p) => p.edge_id))]
  const stats = { marks: 0, retracted: 0 }
  for (let at = 0; at < edges.length; at += EDGES_PER_TRANSACTION) {
    const group = new Set(edges.slice(at, at + EDGES_PER_TRANSACTION))
    const groupPairs = pairs.filter((p) => group.has(p.edge_id))
    const done = await store.transaction(async (tx) => {
      let marks = 0
      for (let i = 0; i < groupPairs.length; i += INSERT_BATCH) {
        const result = await tx.db
          .insertInto('kg_evidence')
          .values(
            groupPairs.slice(i, i + INSERT_BATCH).map((p) => ({
              workspace_id: workspaceId,
              edge_id: p.edge_id,
              chunk_id: p.chunk_id,
              message_ids: p.message_ids,
              polarity: -1,
              source: 'decay',
              evidence_text: 'mentioned without restating the fact',
              prompt_version: null,
              observed_at: p.occurred_at,
              created_at: now,
            })),
          )
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        marks += Number(result.numInsertedOrUpdatedRows ?? 0)
      }
      let retracted = 0
      for (const edgeId of group) {
        const { confidence } = await recount(tx, edgeId)
        if (confidence < config.retractThreshold) {
          await retract(tx, workspaceId, edgeId, confidence, config.retractThreshold, now)
          retracted++
        }
      }
      return { marks, retracted }
    })
    stats.marks += done.marks
    stats.retracted += done.retracted
    await checkpoint(ctx)
  }
  count(ctx, 'softContradictions', stats.marks)
  count(ctx, 'edgesRetracted', stats.retracted)
}

/**
 * Every (stale edge, chunk) pair where a processed chunk in the window mentions the edge's subject or object
 * and gives no evidence of its own for it (extraction or an earlier decay mark).
 */
function softContradictions(tx: StoreScope, workspaceId: string, since: string) {
  return tx.db
    .selectFrom('knowledge_graph as kg')
    .innerJoin('entity_mentions as em', (j) =>
      j
        .onRef('em.workspace_id', '=', 'kg.workspace_id')
        .on((eb) =>
          eb.or([eb('em.entity', '=', eb.ref('kg.subject')), eb('em.entity', '=', eb.ref('kg.object'))]),
        ),
    )
    .innerJoin('chunks as c', 'c.id', 'em.chunk_id')
    .select(['kg.id as edge_id', 'c.id as chunk_id', 'c.message_ids', 'c.occurred_at'])
    .distinct()
    .where('kg.workspace_id', '=', workspaceId)
    .where('kg.status', '=', 'active')
    .where('kg.derived', '=', 0)
    .where('kg.last_reinforced', '<', since)
    .where('c.occurred_at', '>=', since)
    .where(({ exists, selectFrom }) =>
      exists(selectFrom('processed_chunks as pc').select('pc.chunk_id').whereRef('pc.chunk_id', '=', 'c.id')),
    )
    .where(({ not, exists, selectFrom }) =>
      not(
        exists(
          selectFrom('kg_evidence as ev')
            .select('ev.id')
            .whereRef('ev.chunk_id', '=', 'c.id')
            .whereRef('ev.edge_id', '=', 'kg.id'),
        ),
      ),
    )
    .orderBy('kg.id')
    .orderBy('c.id')
    .execute()
}

async function retract(
  tx: StoreScope,
  workspaceId: string,
  edgeId: number,
  confidence: number,
  threshold: number,
  now: string,
): Promise<void> {
  const edge = await tx.db
    .updateTable('knowledge_graph')
    .set({ status: 'retracted' })
    .where('id', '=', edgeId)
    .returning(['subject', 'predicate', 'object'])
    .executeTakeFirstOrThrow()
  const source = await tx.db
    .selectFrom('kg_evidence')
    .innerJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
    .select('chunks.text')
    .where('kg_evidence.edge_id', '=', edgeId)
    .where('kg_evidence.polarity', '=', 1)
    .orderBy('kg_evidence.observed_at', 'desc')
    .limit(1)
    .executeTakeFirst()
  await tx.db
    .insertInto('extraction_feedback')
    .values({
      workspace_id: workspaceId,
      ...edge,
      chunk_text: source?.text ?? null,
      reason: `decay: confidence ${confidence.toFixed(2)} fell below ${threshold}`,
      created_at: now,
    })
    .execute()
}
