import type { Store } from '@hymem/core-store'
import { HyMemError } from '../errors'
import type { TimelineDay, TimelineEvent, TimelineView } from './types'

const DEFAULT_EVENTS = 100
const KIND_ORDER: Record<TimelineEvent['kind'], number> = { retracted: 0, superseded: 1, appeared: 2 }

/** Direct edges appearing and superseded, and retractions, per day and as a latest-first event list. */
export async function inspectTimeline(
  store: Store,
  workspaceId: string,
  limit?: number,
): Promise<TimelineView> {
  const max = limit ?? DEFAULT_EVENTS
  if (!Number.isInteger(max) || max < 1) throw new HyMemError('INVALID_INPUT', 'limit must be an integer ≥ 1')
  const [edgeDays, retractionDays, changed, retractions] = await Promise.all([
    store.edges.historyByDay(workspaceId),
    store.feedback.retractionsByDay(workspaceId),
    store.edges.recentlyChanged(workspaceId, max),
    store.feedback.recent(workspaceId, max),
  ])
  const days = new Map<string, TimelineDay>()
  for (const d of edgeDays) days.set(d.day, { ...d, retracted: 0 })
  for (const d of retractionDays) {
    const known = days.get(d.day) ?? { day: d.day, appeared: 0, superseded: 0, retracted: 0 }
    days.set(d.day, { ...known, retracted: d.retracted })
  }
  const events: TimelineEvent[] = [
    ...changed.flatMap((edge) => {
      const triple = {
        subject: edge.subject,
        predicate: edge.predicate,
        object: edge.object,
        edgeId: edge.id,
      }
      const appeared: TimelineEvent = { at: edge.validFrom, kind: 'appeared', ...triple }
      return edge.validTo === null
        ? [appeared]
        : [{ ...triple, at: edge.validTo, kind: 'superseded' as const }, appeared]
    }),
    ...retractions.map((r) => ({
      at: r.createdAt,
      kind: 'retracted' as const,
      subject: r.subject,
      predicate: r.predicate,
      object: r.object,
      edgeId: null,
    })),
  ]
  // Latest first; at one instant the consequence (a supersession) reads before its cause (an appearance).
  events.sort((a, b) => b.at.localeCompare(a.at) || KIND_ORDER[a.kind] - KIND_ORDER[b.kind])
  return {
    days: [...days.values()].sort((a, b) => a.day.localeCompare(b.day)),
    events: events.slice(0, max),
  }
}
