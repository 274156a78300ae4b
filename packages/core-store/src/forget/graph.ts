import { sql } from 'kysely'
import { edgeConfidence } from '../repositories/edge-confidence'
import { deleteInWorkspace } from './delete-in'
import type { PurgeTx, Tally } from './tally'
import { slices } from './tally'

/** A fact a purge removed. */
export interface RemovedEdge {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
}

/**
 * Removes evidence rows, then settles their edges: an edge left without supporting evidence is removed
 * (with the edges inferred over its entities, which the next dream infers again from what remains); an
 * edge with other evidence gets its counts, confidence and times recomputed from the rows left. `forced`
 * edges are removed whatever evidence they keep (forgetting a fact). Facts a removed edge had superseded
 * become current again. Returns the removed facts (direct and inferred).
 */
export async function forgetEvidence(
  tx: PurgeTx,
  workspaceId: string,
  evidence: readonly { id: number; edgeId: number }[],
  forced: readonly number[],
  tally: Tally,
): Promise<RemovedEdge[]> {
  const evidenceIds = evidence.map((e) => e.id)
  tally.add('evidence', await deleteInWorkspace(tx, 'kg_evidence', workspaceId, 'id', evidenceIds))
  const touched = [...new Set(evidence.map((e) => e.edgeId))].filter((id) => !forced.includes(id))
  const doomed = new Set(forced)
  for (const edgeId of touched) {
    if (await recompute(tx, workspaceId, edgeId)) tally.add('factsRecomputed', 1)
    else doomed.add(edgeId)
  }
  return removeEdges(tx, workspaceId, [...doomed], tally)
}

/** Recomputes an edge from its remaining evidence; false when no supporting evidence is left. */
async function recompute(tx: PurgeTx, workspaceId: string, edgeId: number): Promise<boolean> {
  const rows = await tx.db
    .selectFrom('kg_evidence')
    .select(['polarity', 'observed_at', 'created_at'])
    .where('workspace_id', '=', workspaceId)
    .where('edge_id', '=', edgeId)
    .execute()
  const support = rows.filter((row) => row.polarity === 1)
  if (support.length === 0) return false
  const min = (values: string[]) => [...values].sort()[0]!
  const max = (values: string[]) => [...values].sort().at(-1)!
  const pos = support.length
  const neg = rows.length - pos
  await tx.db
    .updateTable('knowledge_graph')
    .set({
      pos_evidence: pos,
      neg_evidence: neg,
      confidence: edgeConfidence(pos, neg),
      first_seen: min(rows.map((row) => row.observed_at)),
      last_seen: max(rows.map((row) => row.observed_at)),
      last_reinforced: max(support.map((row) => row.observed_at)),
      valid_from: min(support.map((row) => row.observed_at)),
      learned_at: min(support.map((row) => row.created_at)),
    })
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', edgeId)
    .execute()
  return true
}

/** Removes edges, the inferred edges over their entities, their vectors and cached texts. */
async function removeEdges(
  tx: PurgeTx,
  workspaceId: string,
  ids: readonly number[],
  tally: Tally,
): Promise<RemovedEdge[]> {
  if (ids.length === 0) return []
  const removed: RemovedEdge[] = []
  for (const part of slices(ids)) {
    removed.push(
      ...(await tx.db
        .selectFrom('knowledge_graph')
        .select(['id', 'subject', 'predicate', 'object'])
        .where('workspace_id', '=', workspaceId)
        .where('id', 'in', part)
        .execute()),
    )
  }
  if (removed.length === 0) return []
  const entities = [...new Set(removed.flatMap((e) => [e.subject, e.object]))]
  const derived = new Map<number, RemovedEdge>()
  for (const part of slices(entities)) {
    const rows = await tx.db
      .selectFrom('knowledge_graph')
      .select(['id', 'subject', 'predicate', 'object'])
      .where('workspace_id', '=', workspaceId)
      .where('derived', '=', 1)
      .where((eb) => eb.or([eb('subject', 'in', part), eb('object', 'in', part)]))
      .execute()
    for (const row of rows) derived.set(row.id, row)
  }
  const directIds = new Set(removed.map((e) => e.id))
  const all = [...removed, ...[...derived.values()].filter((e) => !directIds.has(e.id))]
  const allIds = all.map((e) => e.id)
  for (const part of slices(allIds)) {
    const reopened = await tx.db
      .updateTable('knowledge_graph')
      .set({ status: 'active', valid_to: null, superseded_by: null })
      .where('workspace_id', '=', workspaceId)
      .where('superseded_by', 'in', part)
      .where('status', '=', 'stale')
      .where('id', 'not in', part)
      .executeTakeFirst()
    tally.add('factsReopened', Number(reopened.numUpdatedRows))
  }
  const vectors = await tx.vectors.textHashes('edges', workspaceId, allIds)
  await tx.vectors.remove('edges', workspaceId, allIds)
  tally.add('vectors', vectors.size)
  tally.add('evidence', await deleteInWorkspace(tx, 'kg_evidence', workspaceId, 'edge_id', allIds))
  await deleteInWorkspace(tx, 'knowledge_graph', workspaceId, 'id', allIds)
  tally.add('facts', removed.length)
  tally.add('derivedFacts', all.length - removed.length)
  await dropCachedTexts(tx, workspaceId, all)
  await dropOrphanTypes(tx, workspaceId, entities, tally)
  return all
}

/**
 * Edge vectors are cached across workspaces by the triple's text (`subject predicate object`); a text no
 * edge of the forgetting workspace carries any more is dropped, so the forgotten names leave the cache too.
 * Only this workspace's facts are read (no statement reads two workspaces): another workspace holding the
 * same text keeps its own edge vectors and only embeds the text again if it needs it.
 */
export async function dropCachedTexts(
  tx: PurgeTx,
  workspaceId: string,
  edges: readonly { subject: string; predicate: string; object: string }[],
): Promise<void> {
  const texts = [...new Set(edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`))]
  if (texts.length > 0) await dropUnusedEdgeTexts(tx, workspaceId, texts)
}

/** One statement for any number of texts: the list travels as one parameter (see `_inIdList`). */
async function dropUnusedEdgeTexts(
  tx: PurgeTx,
  workspaceId: string,
  texts: readonly string[],
): Promise<void> {
  await sql`DELETE FROM edge_embeddings
    WHERE ${tx.engine.inIdList('text_key', texts)}
      AND text_key NOT IN (
        SELECT subject || ' ' || predicate || ' ' || object FROM knowledge_graph WHERE workspace_id = ${workspaceId}
      )`.execute(tx.db)
}

/** Entity types of entities no fact and no chunk of the workspace names any more. */
async function dropOrphanTypes(
  tx: PurgeTx,
  workspaceId: string,
  entities: readonly string[],
  tally: Tally,
): Promise<void> {
  for (const entity of entities) {
    const used = await tx.db
      .selectFrom('knowledge_graph')
      .select('id')
      .where('workspace_id', '=', workspaceId)
      .where((eb) => eb.or([eb('subject', '=', entity), eb('object', '=', entity)]))
      .limit(1)
      .executeTakeFirst()
    if (used) continue
    const mentioned = await tx.db
      .selectFrom('entity_mentions')
      .select('chunk_id')
      .where('workspace_id', '=', workspaceId)
      .where('entity', '=', entity)
      .limit(1)
      .executeTakeFirst()
    if (mentioned) continue
    const result = await tx.db
      .deleteFrom('entity_types')
      .where('workspace_id', '=', workspaceId)
      .where('entity', '=', entity)
      .executeTakeFirst()
    tally.add('entityTypes', Number(result.numDeletedRows))
  }
}
