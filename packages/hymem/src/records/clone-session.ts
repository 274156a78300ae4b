import type { Session, Store } from '@hymem/core-store'

const BATCH = 500

/** See {@link HyMemSessions.clone}. */
export async function cloneSession(
  store: Store,
  workspaceId: string,
  sourceId: string,
  cloneId: string,
  upToId = Number.MAX_SAFE_INTEGER,
): Promise<Session> {
  return store.transaction(async (tx) => {
    const source = await tx.sessions.get(workspaceId, sourceId)
    const { value } = await tx.sessions.getOrCreate(workspaceId, cloneId, {
      ...(source ? { metadata: source.metadata, configuration: source.configuration } : {}),
    })
    const members = await tx.sessions.listPeers(workspaceId, sourceId)
    if (members.length > 0) {
      await tx.sessions.addPeers(
        workspaceId,
        cloneId,
        members.map((m) => ({ peerId: m.peerId, configuration: m.configuration })),
      )
    }
    let after = 0
    for (;;) {
      const batch = await tx.messages.listAfter(workspaceId, sourceId, after, BATCH)
      const copy = batch.filter((m) => m.id <= upToId)
      if (copy.length > 0) {
        await tx.messages.insertBatch(
          workspaceId,
          cloneId,
          copy.map((m) => ({
            peerId: m.peerId,
            role: m.role,
            content: m.content,
            metadata: m.metadata,
            createdAt: m.createdAt,
            tokenCount: m.tokenCount,
          })),
        )
      }
      if (batch.length < BATCH || copy.length < batch.length) return value
      after = batch.at(-1)!.id
    }
  })
}
