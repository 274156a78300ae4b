import type { EdgeKey, StoreScope } from '@hymem/core-store'
import type { EdgeRecord, SessionRecord } from './records'

/**
 * Inserts an edge with its evidence (message ids and chunk refs remapped to this store); null when the
 * triple exists.
 */
export async function writeEdge(
  tx: StoreScope,
  record: EdgeRecord,
  messageIds: ReadonlyMap<string, number>,
  chunkId: (ref: number | null | undefined) => number | null,
): Promise<number | null> {
  await tx.workspaces.insertIfAbsent({
    id: record.workspaceId,
    metadata: {},
    configuration: {},
    createdAt: record.firstSeen,
  })
  const id = await tx.edges.insertIfAbsent(record)
  if (id === null) return null
  for (const evidence of record.evidence) {
    const ids = evidence.messageIds.flatMap((publicId) => {
      const internal = messageIds.get(publicId)
      return internal === undefined ? [] : [internal]
    })
    await tx.evidence.add(record.workspaceId, {
      ...evidence,
      edgeId: id,
      chunkId: chunkId(evidence.chunk),
      messageIds: ids,
    })
  }
  return id
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
    await tx.sessions.setMessagePointers(session.workspaceId, session.id, {
      summaryMessageId: summary,
      lastChunkedMessageId: chunked,
    })
  }
}

/** Links new edges to the edges that superseded them (found by triple once every edge is in). */
export async function linkSupersedes(
  tx: StoreScope,
  edges: readonly { workspaceId: string; id: number; next: EdgeKey }[],
) {
  for (const { workspaceId, id, next } of edges) {
    const target = await tx.edges.findByKey(workspaceId, next)
    if (target) await tx.edges.setSupersededBy(workspaceId, id, target.id)
  }
}
