import type { Selectable } from 'kysely'
import { sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { ProfileEntriesTable } from '../kernel/tables'
import { requireIntegers, requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** A consolidated statement about a peer (a preference, a correction rule, ...) with its evidence counts. */
export interface ProfileEntry {
  readonly id: number
  readonly workspaceId: string
  /** The peer it describes; `''` when it was observed without a single user author. */
  readonly peerId: string
  readonly kind: string
  readonly statement: string
  /** The normalised statement that identifies the entry (repeats in another case or spacing share it). */
  readonly statementKey: string
  /** How many times it was observed. */
  readonly posEvidence: number
  readonly negEvidence: number
  readonly firstSeen: string
  readonly lastSeen: string
}

/** One observation of a profile statement. */
export interface ProfileObservation {
  readonly peerId: string | null
  readonly kind: string
  readonly statement: string
  readonly statementKey: string
  readonly observedAt: string
}

/** Which profile entries {@link MarkersRepository.profileEntries} reads. */
export interface ProfileEntryQuery {
  /** Only this peer's entries. */
  readonly peerId?: string
  /** Only entries with more evidence for than against. @default false */
  readonly supportedOnly?: boolean
  /**
   * Among entries with equal evidence for: the first seen first (a stable order, the default) or the last
   * seen first (the freshest).
   */
  readonly ties?: 'first-seen' | 'last-seen'
  /** At most this many. */
  readonly limit?: number
  /**
   * `strongest-first` (the default) as above; `by-key` ignores `ties` and lists by peer, kind and statement
   * key (a stable order for export).
   */
  readonly order?: 'strongest-first' | 'by-key'
}

/** Profile entries without a peer are stored under the empty peer id. */
const NO_PEER = ''

export function toProfileEntry(row: Selectable<ProfileEntriesTable>): ProfileEntry {
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

/** The profile entries consolidated from behavioural markers (`profile_entries`). */
export interface ProfileEntryMethods {
  /**
   * Counts one observation of a profile statement: a new entry, or one more piece of evidence for the entry
   * with the same peer, kind and statement key (its last-seen time moves forward only). Returns the entry.
   */
  observeProfileEntry(workspaceId: string, observation: ProfileObservation): Promise<ProfileEntry>
  /**
   * The workspace's profile entries that `query` selects, strongest first: most evidence for, then (by
   * `query.ties`) first seen or last seen, then statement.
   */
  profileEntries(workspaceId: string, query?: ProfileEntryQuery): Promise<ProfileEntry[]>
  deleteProfileEntries(workspaceId: string, ids: readonly number[]): Promise<number>
  /** Stores a profile entry as given (an import); false when the peer has it, which is left untouched. */
  insertProfileEntryIfAbsent(entry: Omit<ProfileEntry, 'id'>): Promise<boolean>
}

function requireProfileEntryQuery(query: ProfileEntryQuery): ProfileEntryQuery {
  if (typeof query !== 'object' || query === null)
    throw new StoreError('INVALID_INPUT', 'the profile entry query must be an object')
  if (query.peerId !== undefined) requireText(query.peerId, 'peerId')
  if (query.ties !== undefined && query.ties !== 'first-seen' && query.ties !== 'last-seen')
    throw new StoreError('INVALID_INPUT', "ties must be 'first-seen' or 'last-seen'")
  if (query.order !== undefined && query.order !== 'strongest-first' && query.order !== 'by-key')
    throw new StoreError('INVALID_INPUT', "order must be 'strongest-first' or 'by-key'")
  if (query.limit !== undefined && (!Number.isInteger(query.limit) || query.limit < 1))
    throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
  return query
}

export function createProfileEntryMethods(scope: RepositoryScope): ProfileEntryMethods {
  const { db } = scope
  return {
    async observeProfileEntry(workspaceId, observation) {
      requireId(workspaceId, 'workspace id')
      const observedAt = requireText(observation.observedAt, 'observedAt')
      const values = {
        workspace_id: workspaceId,
        peer_id: observation.peerId === null ? NO_PEER : requireText(observation.peerId, 'peerId'),
        kind: requireText(observation.kind, 'kind'),
        statement: requireText(observation.statement, 'statement'),
        statement_key: requireText(observation.statementKey, 'statementKey'),
        first_seen: observedAt,
        last_seen: observedAt,
      }
      const row = await db
        .insertInto('profile_entries')
        .values(values)
        .onConflict((oc) =>
          oc.columns(['workspace_id', 'peer_id', 'kind', 'statement_key']).doUpdateSet((eb) => ({
            pos_evidence: eb('profile_entries.pos_evidence', '+', 1),
            // The later of the two, portably (SQLite's two-argument max() is GREATEST on PostgreSQL).
            last_seen: sql<string>`CASE WHEN profile_entries.last_seen > excluded.last_seen THEN profile_entries.last_seen ELSE excluded.last_seen END`,
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return toProfileEntry(row)
    },
    async profileEntries(workspaceId, query = {}) {
      requireId(workspaceId, 'workspace id')
      const { peerId, supportedOnly, ties, limit, order } = requireProfileEntryQuery(query)
      const byKey = order === 'by-key'
      const rows = await selectInWorkspace(db, 'profile_entries', workspaceId)
        .$if(peerId !== undefined, (q) => q.where('peer_id', '=', peerId ?? ''))
        .$if(supportedOnly === true, (q) => q.whereRef('pos_evidence', '>', 'neg_evidence'))
        .$if(byKey, (q) => q.orderBy('peer_id').orderBy('kind').orderBy('statement_key'))
        .$if(!byKey, (q) => q.orderBy('pos_evidence', 'desc'))
        .$if(!byKey && ties === 'last-seen', (q) => q.orderBy('last_seen', 'desc'))
        .$if(!byKey && ties !== 'last-seen', (q) => q.orderBy('first_seen'))
        .$if(!byKey, (q) => q.orderBy('statement'))
        .$if(limit !== undefined, (q) => q.limit(limit ?? 0))
        .execute()
      return rows.map(toProfileEntry)
    },
    async deleteProfileEntries(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'ids')
      if (ids.length === 0) return 0
      const result = await db
        .deleteFrom('profile_entries')
        .where('id', 'in', ids)
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst()
      return Number(result.numDeletedRows)
    },
    async insertProfileEntryIfAbsent(entry) {
      requireId(entry.workspaceId, 'workspace id')
      requireText(entry.kind, 'kind')
      requireText(entry.statementKey, 'statementKey')
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
