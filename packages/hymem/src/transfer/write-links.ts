import type { StoreScope } from '@hymem/core-store'
import type { EdgeRecord, SessionRecord } from './records'

/** Inserts an edge with its evidence (message ids remapped to this store); null when the triple exists. */
export async function writeEdge(tx: StoreScope, record: EdgeRecord, messageIds: ReadonlyMap<string, number>) {
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
    await tx.evidence.insert({
      ...evidence,
      workspaceId: record.workspaceId,
      edgeId: id,
      chunkId: null,
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

export async function linkSupersedes(tx: StoreScope, edges: readonly { record: EdgeRecord; id: number }[]) {
  for (const { record, id } of edges) {
    const next = record.supersededBy
    if (!next) continue
    const target = await tx.edges.findByKey(record.workspaceId, next)
    if (target) await tx.edges.setSupersededBy(record.workspaceId, id, target.id)
  }
}
