import type { StoreScope } from '@hymem/core-store'
import type { NegativeExample } from '@hymem/extraction'

/** The most recent retractions, newest first: injected as negative examples and enforced on write. */
export async function loadNegativeExamples(
  store: StoreScope,
  workspaceId: string,
  limit: number,
): Promise<NegativeExample[]> {
  if (limit <= 0) return []
  const rows = await store.feedback.recent(workspaceId, limit)
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
