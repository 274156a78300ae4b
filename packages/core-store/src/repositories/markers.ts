import type { Selectable } from 'kysely'
import type { ProfileEntriesTable } from '../schema/tables'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** Behavioural markers (`behavioral_markers`) and the profile entries consolidated from them (`profile_entries`). */
export interface MarkersRepository {
  /** Every profile entry of the workspace, by peer, kind and statement key. */
  listProfileEntries(workspaceId: string): Promise<ProfileEntry[]>
  /** Stores a profile entry as given (an import); false when the peer has it, which is left untouched. */
  insertProfileEntryIfAbsent(entry: Omit<ProfileEntry, 'id'>): Promise<boolean>
}

/** A consolidated statement about a peer (a preference, a correction rule, ...) with its evidence counts. */
export interface ProfileEntry {
  readonly id: number
  readonly workspaceId: string
  readonly peerId: string
  readonly kind: string
  readonly statement: string
  /** The normalised statement that identifies the entry. */
  readonly statementKey: string
  readonly posEvidence: number
  readonly negEvidence: number
  readonly firstSeen: string
  readonly lastSeen: string
}

function toProfileEntry(row: Selectable<ProfileEntriesTable>): ProfileEntry {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    peerId: row.peer_id,
    kind: row.kind,
    statement: row.statement,
    statementKey: row.statement_key,
    posEvidence: row.pos_evidence,
    negEvidence: row.neg_evidence,
    firstSeen: row.first_seen,
    lastSeen: row.last_seen,
  }
}

export function createMarkersRepository(scope: RepositoryScope): MarkersRepository {
  const { db } = scope
  return {
    async listProfileEntries(workspaceId) {
      const rows = await db
        .selectFrom('profile_entries')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('peer_id')
        .orderBy('kind')
        .orderBy('statement_key')
        .execute()
      return rows.map(toProfileEntry)
    },
    async insertProfileEntryIfAbsent(entry) {
      requireId(entry.workspaceId, 'workspace id')
      const values = {
        workspace_id: entry.workspaceId,
        peer_id: entry.peerId,
        kind: entry.kind,
        statement: entry.statement,
        statement_key: entry.statementKey,
        pos_evidence: entry.posEvidence,
        neg_evidence: entry.negEvidence,
        first_seen: entry.firstSeen,
        last_seen: entry.lastSeen,
      }
      const result = await scope.write((tx) =>
        tx
          .insertInto('profile_entries')
          .values(values)
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
  }
}
