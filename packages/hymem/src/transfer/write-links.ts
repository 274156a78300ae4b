import type { StoreScope } from '@hymem/core-store'
import type { EdgeRecord, SessionRecord } from './records'

/** Inserts an edge with its evidence (message ids remapped to this store); null when the triple exists. */
export async function writeEdge(tx: StoreScope, record: EdgeRecord, messageIds: ReadonlyMap<string, number>) {
  const { db } = tx
  await db
    .insertInto('workspaces')
    .values({ id: record.workspaceId, created_at: record.firstSeen })
    .onConflict((oc) => oc.doNothing())
    .execute()
  const result = await db
    .insertInto('knowledge_graph')
    .values({
      workspace_id: record.workspaceId,
      subject: record.subject,
      predicate: record.predicate,
      object: record.object,
      derived: record.derived ? 1 : 0,
      pos_evidence: record.posEvidence,
      neg_evidence: record.negEvidence,
      confidence: record.confidence,
      status: record.status,
      first_seen: record.firstSeen,
      last_seen: record.lastSeen,
      last_reinforced: record.lastReinforced,
      valid_from: record.validFrom,
      valid_to: record.validTo,
    })
    .onConflict((oc) => oc.doNothing())
    .returning('id')
    .executeTakeFirst()
  if (!result) return null
  for (const evidence of record.evidence) {
    const ids = evidence.messageIds.flatMap((publicId) => {
      const id = messageIds.get(publicId)
      return id === undefined ? [] : [id]
    })
    await db
      .insertInto('kg_evidence')
      .values({
        workspace_id: record.workspaceId,
        edge_id: result.id,
        chunk_id: null,
        message_ids: JSON.stringify(ids),
        polarity: evidence.polarity,
        value_text: evidence.valueText,
        value_numeric: evidence.valueNumeric,
        value_unit: evidence.valueUnit,
        temporal_scope: evidence.temporalScope,
        evidence_text: evidence.evidenceText,
        source: evidence.source,
        prompt_version: evidence.promptVersion,
        observed_at: evidence.observedAt,
        created_at: evidence.createdAt,
      })
      .execute()
  }
  return result.id
}

/** Points new sessions at their summary message and chunking position (messages come after sessions). */
export async function linkSessions(
  tx: StoreScope,
  sessions: readonly SessionRecord[],
  ids: ReadonlyMap<string, number>,
) {
  for (const session of sessions) {
    const summary = session.summaryMessageId === null ? null : (ids.get(session.summaryMessageId) ?? null)
    const chunked = session.lastChunkedMessageId === null ? 0 : (ids.get(session.lastChunkedMessageId) ?? 0)
    await tx.db
      .updateTable('sessions')
      .set({ summary_message_id: summary, last_chunked_message_id: chunked })
      .where('workspace_id', '=', session.workspaceId)
      .where('id', '=', session.id)
      .execute()
  }
}

export async function linkSupersedes(tx: StoreScope, edges: readonly { record: EdgeRecord; id: number }[]) {
  for (const { record, id } of edges) {
    const next = record.supersededBy
    if (!next) continue
    const target = await tx.db
      .selectFrom('knowledge_graph')
      .select('id')
      .where('workspace_id', '=', record.workspaceId)
      .where('subject', '=', next.subject)
      .where('predicate', '=', next.predicate)
      .where('object', '=', next.object)
      .where('derived', '=', next.derived ? 1 : 0)
      .executeTakeFirst()
    if (target)
      await tx.db
        .updateTable('knowledge_graph')
        .set({ superseded_by: target.id })
        .where('id', '=', id)
        .execute()
  }
}
