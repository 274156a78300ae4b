import { normalize, resolveAlias, type Store } from '@hymem/core-store'
import { DreamError } from './errors'

/** What {@link retractEdge} did. */
export interface RetractResult {
  /** Edges newly retracted (0 when already retracted). */
  readonly retracted: number
  /** Whether a feedback row was recorded. */
  readonly feedbackRecorded: boolean
  /** False when no direct edge matched the triple. */
  readonly found: boolean
}

/**
 * Retracts a direct edge by its triple (names are canonicalised and aliases resolved) and records the triple
 * in `extraction_feedback`, so the next cycles inject it as a negative example and never re-extract it.
 * Derived edges that rested on it vanish at the next inference. Idempotent; an unknown triple retracts
 * nothing (`found: false`).
 *
 * @example
 * await retractEdge(store, 'default', { subject: 'api', predicate: 'uses', object: 'MySQL', reason: 'wrong' })
 */
export async function retractEdge(
  store: Store,
  workspaceId: string,
  triple: { subject: string; predicate: string; object: string; reason?: string },
): Promise<RetractResult> {
  const names = [triple.subject, triple.object].map((s) => (typeof s === 'string' ? normalize(s) : ''))
  if (names.some((n) => n === '') || typeof triple.predicate !== 'string' || triple.predicate.trim() === '') {
    throw new DreamError('INVALID_INPUT', 'retractEdge needs a non-empty subject, predicate and object')
  }
  const now = store.context.now()
  return store.transaction(async (tx) => {
    const resolve = async (name: string) => (await resolveAlias(tx, { workspaceId, surface: name })) ?? name
    const predicate = triple.predicate.trim()
    const find = (subject: string, object: string) =>
      tx.db
        .selectFrom('knowledge_graph')
        .select(['id', 'status', 'subject', 'object'])
        .where('workspace_id', '=', workspaceId)
        .where('subject', '=', subject)
        .where('predicate', '=', predicate)
        .where('object', '=', object)
        .where('derived', '=', 0)
        .executeTakeFirst()
    // The alias first (`user` → its peer), then the name as written (a multi-author `user` edge).
    const edge =
      (await find(await resolve(names[0]!), await resolve(names[1]!))) ?? (await find(names[0]!, names[1]!))
    if (!edge) return { retracted: 0, feedbackRecorded: false, found: false }
    if (edge.status === 'retracted') return { retracted: 0, feedbackRecorded: false, found: true }
    const { subject, object } = edge
    await tx.db
      .updateTable('knowledge_graph')
      .set({ status: 'retracted' })
      .where('id', '=', edge.id)
      .execute()
    const source = await tx.db
      .selectFrom('kg_evidence')
      .innerJoin('chunks', 'chunks.id', 'kg_evidence.chunk_id')
      .select('chunks.text')
      .where('kg_evidence.edge_id', '=', edge.id)
      .where('kg_evidence.polarity', '=', 1)
      .orderBy('kg_evidence.observed_at', 'desc')
      .limit(1)
      .executeTakeFirst()
    await tx.db
      .insertInto('extraction_feedback')
      .values({
        workspace_id: workspaceId,
        subject,
        predicate,
        object,
        chunk_text: source?.text ?? null,
        reason: triple.reason ?? 'retracted by the user',
        created_at: now,
      })
      .execute()
    return { retracted: 1, feedbackRecorded: true, found: true }
  })
}
