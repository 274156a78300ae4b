import type { StoreScope } from '@hymem/core-store'
import type { NegativeExample } from '@hymem/extraction'

/** The most recent retractions, newest first: injected as negative examples and enforced on write. */
export async function loadNegativeExamples(
  db: StoreScope['db'],
  workspaceId: string,
  limit: number,
): Promise<NegativeExample[]> {
  if (limit <= 0) return []
  const rows = await db
    .selectFrom('extraction_feedback')
    .select(['subject', 'predicate', 'object', 'reason'])
    .where('workspace_id', '=', workspaceId)
    .orderBy('created_at', 'desc')
    .orderBy('id', 'desc')
    .limit(limit)
    .execute()
  return rows.map((r) => ({
    subject: r.subject,
    predicate: r.predicate,
    object: r.object,
    ...(r.reason ? { reason: r.reason } : {}),
  }))
}

export function tripleKey(t: { subject: string; predicate: string; object: string }): string {
  return `${t.subject}\u0000${t.predicate}\u0000${t.object}`
}
