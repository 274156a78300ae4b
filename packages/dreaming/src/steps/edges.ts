import type { StoreScope } from '@hymem/core-store'
import { recount } from './confidence'

/** One piece of evidence for (or against) a triple. */
export interface EvidenceInput {
  readonly chunkId: number | null
  readonly messageIds: readonly number[]
  readonly polarity: 1 | -1
  readonly valueText?: string | undefined
  readonly valueNumeric?: number | undefined
  readonly valueUnit?: string | undefined
  readonly temporalScope?: string | undefined
  readonly evidenceText?: string | undefined
  readonly source: string
  readonly promptVersion: string | null
  /** When the evidence was stated (the messages' time). */
  readonly observedAt: string
}

export interface EdgeRow {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly status: string
  readonly last_reinforced: string
  readonly valid_to: string | null
}

export interface UpsertResult {
  /** Null when a negation named a fact the graph never held (nothing to weaken). */
  readonly edge: EdgeRow | null
  readonly created: boolean
  /** False when this chunk had already given this evidence (a replay). */
  readonly evidenceAdded: boolean
}

const later = (a: string, b: string) => (a > b ? a : b)
const earlier = (a: string, b: string) => (a < b ? a : b)

/**
 * Inserts or reinforces a direct edge with one evidence row. Evidence is unique per (edge, chunk, polarity),
 * so replaying a chunk changes nothing; counters are recomputed from the rows. Positive evidence from a chunk
 * replaces a decay mark the same chunk left earlier, and re-activates a superseded edge when it is newer
 * than the supersession. A negation of a fact the graph never held creates nothing.
 */
export async function upsertEdge(
  tx: StoreScope,
  workspaceId: string,
  triple: { subject: string; predicate: string; object: string },
  evidence: EvidenceInput,
  now: string,
): Promise<UpsertResult> {
  const at = evidence.observedAt
  let existing = await findEdge(tx, workspaceId, triple)
  let created = false
  if (!existing && evidence.polarity === -1) return { edge: null, created: false, evidenceAdded: false }
  if (!existing) {
    const inserted = await tx.db
      .insertInto('knowledge_graph')
      .values({
        workspace_id: workspaceId,
        ...triple,
        first_seen: at,
        last_seen: at,
        last_reinforced: at,
        valid_from: at,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    existing = {
      id: inserted.id,
      ...triple,
      status: 'active',
      first_seen: at,
      last_seen: at,
      last_reinforced: at,
      valid_from: at,
      valid_to: null,
    }
    created = true
  }
  const edgeId = existing.id
  const added = await tx.db
    .insertInto('kg_evidence')
    .values({
      workspace_id: workspaceId,
      edge_id: edgeId,
      chunk_id: evidence.chunkId,
      message_ids: JSON.stringify(evidence.messageIds),
      polarity: evidence.polarity,
      value_text: evidence.valueText ?? null,
      value_numeric: evidence.valueNumeric ?? null,
      value_unit: evidence.valueUnit ?? null,
      temporal_scope: evidence.temporalScope ?? null,
      evidence_text: evidence.evidenceText ?? null,
      source: evidence.source,
      prompt_version: evidence.promptVersion,
      observed_at: at,
      created_at: now,
    })
    .onConflict((oc) => oc.doNothing())
    .executeTakeFirst()
  const evidenceAdded = Number(added.numInsertedOrUpdatedRows ?? 0) === 1
  if (evidenceAdded && evidence.polarity === 1 && evidence.chunkId !== null) {
    await tx.db
      .deleteFrom('kg_evidence')
      .where('edge_id', '=', edgeId)
      .where('chunk_id', '=', evidence.chunkId)
      .where('polarity', '=', -1)
      .where('source', '=', 'decay')
      .execute()
  }
  if (evidenceAdded) {
    const patch: Record<string, string | null> = {
      last_seen: later(existing.last_seen, at),
      first_seen: earlier(existing.first_seen, at),
    }
    if (evidence.polarity === 1) {
      patch.last_reinforced = later(existing.last_reinforced, at)
      patch.valid_from = earlier(existing.valid_from, at)
      if (existing.status === 'stale' && existing.valid_to !== null && at > existing.valid_to) {
        Object.assign(patch, { status: 'active', valid_to: null, superseded_by: null })
      }
    }
    await recount(tx, edgeId, patch)
    existing = { ...existing, ...patch } as typeof existing
  }
  return { edge: existing, created, evidenceAdded }
}

async function findEdge(
  tx: StoreScope,
  workspaceId: string,
  triple: { subject: string; predicate: string; object: string },
) {
  return tx.db
    .selectFrom('knowledge_graph')
    .select([
      'id',
      'subject',
      'predicate',
      'object',
      'status',
      'first_seen',
      'last_seen',
      'last_reinforced',
      'valid_from',
      'valid_to',
    ])
    .where('workspace_id', '=', workspaceId)
    .where('subject', '=', triple.subject)
    .where('predicate', '=', triple.predicate)
    .where('object', '=', triple.object)
    .where('derived', '=', 0)
    .executeTakeFirst()
}
