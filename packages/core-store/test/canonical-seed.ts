import type { Insertable } from 'kysely'
import type { KnowledgeGraphTable } from '../src/kernel/tables'
import { builderOf } from '../src/store/builder'
import type { Store } from '../src/store/types'

const T = '2026-03-01T10:00:00.000Z'

/** Inserts an edge with explicit counters and times (bypassing the canonicalizer) and returns its id. */
export async function seedEdge(
  store: Store,
  triple: [string, string, string],
  fields: Partial<Insertable<KnowledgeGraphTable>> = {},
  workspaceId = 'w1',
): Promise<number> {
  const result = await builderOf(store)
    .insertInto('knowledge_graph')
    .values({
      workspace_id: workspaceId,
      subject: triple[0],
      predicate: triple[1],
      object: triple[2],
      first_seen: T,
      last_seen: T,
      last_reinforced: T,
      valid_from: T,
      ...fields,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return result.id
}

/** Inserts one evidence row for an edge. */
export async function seedEvidence(store: Store, edgeId: number, chunkId: number | null, polarity: 1 | -1) {
  const result = await builderOf(store)
    .insertInto('kg_evidence')
    .values({
      workspace_id: 'w1',
      edge_id: edgeId,
      chunk_id: chunkId,
      polarity,
      observed_at: T,
      created_at: T,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return result.id
}

/** All edges of a workspace as `subject predicate object` plus counters, sorted. */
export async function edgesOf(store: Store, workspaceId = 'w1') {
  const rows = await builderOf(store)
    .selectFrom('knowledge_graph')
    .select([
      'id',
      'subject',
      'predicate',
      'object',
      'pos_evidence',
      'neg_evidence',
      'confidence',
      'status',
      'derived',
    ])
    .where('workspace_id', '=', workspaceId)
    .orderBy('subject')
    .orderBy('predicate')
    .orderBy('object')
    .orderBy('derived')
    .execute()
  return rows.map((r) => ({
    triple: `${r.subject} ${r.predicate} ${r.object}${r.derived ? ' (derived)' : ''}`,
    pos: r.pos_evidence,
    neg: r.neg_evidence,
    confidence: r.confidence,
    status: r.status,
    id: r.id,
  }))
}

/** The alias table of a workspace as `surface → canonical` strings, sorted. */
export async function aliasesOf(store: Store, workspaceId = 'w1') {
  const rows = await builderOf(store)
    .selectFrom('entity_aliases')
    .select(['surface', 'canonical'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('surface')
    .execute()
  return rows.map((r) => `${r.surface} → ${r.canonical}`)
}
