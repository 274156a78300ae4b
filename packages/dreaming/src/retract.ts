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
  return store.transaction(async (tx) => {
    const resolve = async (name: string) => (await resolveAlias(tx, { workspaceId, surface: name })) ?? name
    const predicate = triple.predicate.trim()
    const find = (subject: string, object: string) =>
      tx.edges.findByKey(workspaceId, { subject, predicate, object })
    // The alias first (`user` → its peer), then the name as written (a multi-author `user` edge).
    const edge =
      (await find(await resolve(names[0]!), await resolve(names[1]!))) ?? (await find(names[0]!, names[1]!))
    if (!edge) return { retracted: 0, feedbackRecorded: false, found: false }
    if (edge.status === 'retracted') return { retracted: 0, feedbackRecorded: false, found: true }
    const { subject, object } = await tx.edges.retract(workspaceId, edge.id)
    await tx.feedback.record(workspaceId, {
      subject,
      predicate,
      object,
      chunkText: await tx.evidence.latestSupportText(workspaceId, edge.id),
      reason: triple.reason ?? 'retracted by the user',
    })
    await tx.graphGenerations.advance(workspaceId)
    return { retracted: 1, feedbackRecorded: true, found: true }
  })
}
