import type { StoreScope } from '@hymem/core-store'
import type { DumpRecord, EdgeRecord, SessionRecord } from './records'
import { linkSessions, linkSupersedes, writeEdge } from './write-links'
import { _key, type MessageWriteState, writeMessages } from './write-messages'

type MessageRecord = Extract<DumpRecord, { type: 'message' }>
const MESSAGE_BATCH = 1_000

/** Counts of one import, before re-embedding. */
export interface ImportCounts {
  readonly inserted: Record<string, number>
  readonly skipped: Record<string, number>
  readonly warnings: string[]
  /** Ids of the notes and edges inserted, to embed after the commit. */
  readonly newNotes: string[]
  readonly newEdges: number[]
}

/**
 * Writes the records inside the caller's transaction. Existing rows are skipped, never overwritten. A dump
 * record carries the same fields as the stored object, so it is handed to the repository as it is.
 */
export async function writeDump(tx: StoreScope, records: readonly DumpRecord[]): Promise<ImportCounts> {
  const counts: ImportCounts = { inserted: {}, skipped: {}, warnings: [], newNotes: [], newEdges: [] }
  const tally = (type: string, inserted: boolean) => {
    const bucket = inserted ? counts.inserted : counts.skipped
    bucket[type] = (bucket[type] ?? 0) + 1
  }
  const messageIds = new Map<string, number>()
  const newSessions: SessionRecord[] = []
  const newEdges: { record: EdgeRecord; id: number }[] = []
  const workspaces = new Set<string>()
  const ensureWorkspace = async (id: string, createdAt: string) => {
    if (workspaces.has(id)) return
    workspaces.add(id)
    await tx.workspaces.insertIfAbsent({ id, metadata: {}, configuration: {}, createdAt })
  }

  const state: MessageWriteState = { messageIds, sessions: new Set(), peers: new Set() }
  const pending: MessageRecord[] = []
  const flush = async () => {
    if (pending.length === 0) return
    await writeMessages(tx, pending.splice(0), state, { tally, warnings: counts.warnings })
  }

  for (const record of records) {
    if (record.type !== 'message') await flush()
    switch (record.type) {
      case 'header':
        break
      case 'workspace': {
        tally('workspace', await tx.workspaces.insertIfAbsent(record))
        break
      }
      case 'peer': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        tally('peer', await tx.peers.insertIfAbsent(record))
        state.peers.add(_key(record.workspaceId, record.id))
        break
      }
      case 'session': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        const inserted = await tx.sessions.insertIfAbsent(record)
        tally('session', inserted)
        state.sessions.add(_key(record.workspaceId, record.id))
        if (inserted) newSessions.push(record)
        for (const member of record.peers) {
          await tx.peers.insertIfAbsent({
            workspaceId: record.workspaceId,
            id: member.peerId,
            createdAt: member.joinedAt,
          })
          state.peers.add(_key(record.workspaceId, member.peerId))
          await tx.sessions.insertPeerIfAbsent({
            workspaceId: record.workspaceId,
            sessionId: record.id,
            ...member,
          })
        }
        break
      }
      case 'message':
        pending.push(record)
        if (pending.length >= MESSAGE_BATCH) await flush()
        break
      case 'alias': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        tally('alias', await tx.aliases.insertIfAbsent(record))
        break
      }
      case 'edge': {
        const id = await writeEdge(tx, record, messageIds)
        tally('edge', id !== null)
        if (id !== null) {
          newEdges.push({ record, id })
          counts.newEdges.push(id)
        }
        break
      }
      case 'profile': {
        await ensureWorkspace(record.workspaceId, record.firstSeen)
        tally('profile', await tx.markers.insertProfileEntryIfAbsent(record))
        break
      }
      case 'note': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        const inserted = await tx.notes.insertIfAbsent(record)
        tally('note', inserted)
        if (inserted) counts.newNotes.push(record.id)
        break
      }
    }
  }

  await flush()
  await linkSessions(tx, newSessions, messageIds)
  await linkSupersedes(tx, newEdges)
  return counts
}
