import type { StoreScope } from '@hymem/core-store'
import type { InsertResult } from 'kysely'
import type { DumpRecord, EdgeRecord, SessionRecord } from './records'
import { linkSessions, linkSupersedes, writeEdge } from './write-links'
import { _key, type MessageWriteState, writeMessages } from './write-messages'

type MessageRecord = Extract<DumpRecord, { type: 'message' }>
const MESSAGE_BATCH = 1_000

/** Whether an `INSERT … ON CONFLICT DO NOTHING` wrote its row (false: the row already existed). */
const wasInserted = (result: InsertResult) => Number(result.numInsertedOrUpdatedRows ?? 0) > 0

/** Counts of one import, before re-embedding. */
export interface ImportCounts {
  readonly inserted: Record<string, number>
  readonly skipped: Record<string, number>
  readonly warnings: string[]
  /** Ids of the notes and edges inserted, to embed after the commit. */
  readonly newNotes: string[]
  readonly newEdges: number[]
}

/** Writes the records inside the caller's transaction. Existing rows are skipped, never overwritten. */
export async function writeDump(tx: StoreScope, records: readonly DumpRecord[]): Promise<ImportCounts> {
  const counts: ImportCounts = { inserted: {}, skipped: {}, warnings: [], newNotes: [], newEdges: [] }
  const tally = (type: string, inserted: boolean) => {
    const bucket = inserted ? counts.inserted : counts.skipped
    bucket[type] = (bucket[type] ?? 0) + 1
  }
  const messageIds = new Map<string, number>()
  const newSessions: SessionRecord[] = []
  const newEdges: { record: EdgeRecord; id: number }[] = []
  const { db } = tx

  const workspaces = new Set<string>()
  const ensureWorkspace = async (id: string, createdAt: string) => {
    if (workspaces.has(id)) return
    workspaces.add(id)
    await db
      .insertInto('workspaces')
      .values({ id, created_at: createdAt })
      .onConflict((oc) => oc.doNothing())
      .execute()
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
        const result = await db
          .insertInto('workspaces')
          .values({
            id: record.id,
            metadata: JSON.stringify(record.metadata),
            configuration: JSON.stringify(record.configuration),
            created_at: record.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        tally('workspace', wasInserted(result))
        break
      }
      case 'peer': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        const result = await db
          .insertInto('peers')
          .values({
            workspace_id: record.workspaceId,
            id: record.id,
            role: record.role,
            metadata: JSON.stringify(record.metadata),
            configuration: JSON.stringify(record.configuration),
            created_at: record.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        tally('peer', wasInserted(result))
        state.peers.add(_key(record.workspaceId, record.id))
        break
      }
      case 'session': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        const result = await db
          .insertInto('sessions')
          .values({
            workspace_id: record.workspaceId,
            id: record.id,
            is_active: record.isActive ? 1 : 0,
            metadata: JSON.stringify(record.metadata),
            configuration: JSON.stringify(record.configuration),
            summary: record.summary,
            summary_updated_at: record.summaryUpdatedAt,
            started_at: record.startedAt,
            ended_at: record.endedAt,
            created_at: record.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        const inserted = wasInserted(result)
        tally('session', inserted)
        state.sessions.add(_key(record.workspaceId, record.id))
        if (inserted) newSessions.push(record)
        for (const member of record.peers) {
          await db
            .insertInto('peers')
            .values({ workspace_id: record.workspaceId, id: member.peerId, created_at: member.joinedAt })
            .onConflict((oc) => oc.doNothing())
            .execute()
          state.peers.add(_key(record.workspaceId, member.peerId))
          await db
            .insertInto('session_peers')
            .values({
              workspace_id: record.workspaceId,
              session_id: record.id,
              peer_id: member.peerId,
              configuration: JSON.stringify(member.configuration),
              joined_at: member.joinedAt,
              left_at: member.leftAt,
            })
            .onConflict((oc) => oc.doNothing())
            .execute()
        }
        break
      }
      case 'message':
        pending.push(record)
        if (pending.length >= MESSAGE_BATCH) await flush()
        break
      case 'alias': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        const result = await db
          .insertInto('entity_aliases')
          .values({
            workspace_id: record.workspaceId,
            surface: record.surface,
            canonical: record.canonical,
            created_at: record.createdAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        tally('alias', wasInserted(result))
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
        const result = await db
          .insertInto('profile_entries')
          .values({
            workspace_id: record.workspaceId,
            peer_id: record.peerId,
            kind: record.kind,
            statement: record.statement,
            statement_key: record.statementKey,
            pos_evidence: record.posEvidence,
            neg_evidence: record.negEvidence,
            first_seen: record.firstSeen,
            last_seen: record.lastSeen,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        tally('profile', wasInserted(result))
        break
      }
      case 'note': {
        await ensureWorkspace(record.workspaceId, record.createdAt)
        const result = await db
          .insertInto('notes')
          .values({
            id: record.id,
            workspace_id: record.workspaceId,
            description: record.description,
            content: record.content,
            importance: record.importance,
            observer_id: record.observerId,
            observed_id: record.observedId,
            session_id: record.sessionId,
            level: record.level,
            source_ids: JSON.stringify(record.sourceIds),
            times_derived: record.timesDerived,
            metadata: JSON.stringify(record.metadata),
            created_at: record.createdAt,
            updated_at: record.updatedAt,
            last_accessed_at: record.lastAccessedAt,
            archived_at: record.archivedAt,
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst()
        const inserted = wasInserted(result)
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
