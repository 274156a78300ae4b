import type { StoreScope } from '@hymem/core-store'
import { HyMemError } from '../errors'
import type { DumpRecord, EdgeRecord, SessionRecord } from './records'
import { linkSessions, linkSupersedes, writeEdge } from './write-links'

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

  const ensureWorkspace = async (id: string, createdAt: string) => {
    await db
      .insertInto('workspaces')
      .values({ id, created_at: createdAt })
      .onConflict((oc) => oc.doNothing())
      .execute()
  }

  for (const record of records) {
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
        tally('workspace', Number(result.numInsertedOrUpdatedRows ?? 0) > 0)
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
        tally('peer', Number(result.numInsertedOrUpdatedRows ?? 0) > 0)
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
        const inserted = Number(result.numInsertedOrUpdatedRows ?? 0) > 0
        tally('session', inserted)
        if (inserted) newSessions.push(record)
        for (const member of record.peers) {
          await db
            .insertInto('peers')
            .values({ workspace_id: record.workspaceId, id: member.peerId, created_at: member.joinedAt })
            .onConflict((oc) => oc.doNothing())
            .execute()
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
      case 'message': {
        const existing = await db
          .selectFrom('messages')
          .select(['id', 'workspace_id'])
          .where('public_id', '=', record.id)
          .executeTakeFirst()
        if (existing) {
          if (existing.workspace_id === record.workspaceId) messageIds.set(record.id, existing.id)
          else
            counts.warnings.push(`message ${record.id} exists in workspace ${existing.workspace_id}: skipped`)
          tally('message', false)
          break
        }
        const session = await db
          .selectFrom('sessions')
          .select('id')
          .where('workspace_id', '=', record.workspaceId)
          .where('id', '=', record.sessionId)
          .executeTakeFirst()
        if (!session) {
          throw new HyMemError(
            'IMPORT_FAILED',
            `message ${record.id} belongs to session ${record.sessionId}, which is neither in the dump nor in the store: nothing imported`,
          )
        }
        await db
          .insertInto('peers')
          .values({ workspace_id: record.workspaceId, id: record.peerId, created_at: record.createdAt })
          .onConflict((oc) => oc.doNothing())
          .execute()
        const inserted = await db
          .insertInto('messages')
          .values({
            public_id: record.id,
            workspace_id: record.workspaceId,
            session_id: record.sessionId,
            peer_id: record.peerId,
            role: record.role,
            content: record.content,
            metadata: JSON.stringify(record.metadata),
            token_count: record.tokenCount,
            created_at: record.createdAt,
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        messageIds.set(record.id, inserted.id)
        tally('message', true)
        break
      }
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
        tally('alias', Number(result.numInsertedOrUpdatedRows ?? 0) > 0)
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
        tally('profile', Number(result.numInsertedOrUpdatedRows ?? 0) > 0)
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
        const inserted = Number(result.numInsertedOrUpdatedRows ?? 0) > 0
        tally('note', inserted)
        if (inserted) counts.newNotes.push(record.id)
        break
      }
    }
  }

  await linkSessions(tx, newSessions, messageIds)
  await linkSupersedes(tx, newEdges)
  return counts
}
