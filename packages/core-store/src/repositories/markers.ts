import type { Selectable } from 'kysely'
import type { BehavioralMarkersTable, MarkerKind, ProfileEntriesTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { requireInteger, requireIntegers, requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'
import { _notIndexedSqlite } from './sqlite-hints'

/** A behavioural observation about a peer (a preference, a rejection, a correction, a style). */
export interface Marker {
  readonly id: number
  readonly workspaceId: string
  /** The peer the statement is about; null when the chunk had no single user author. */
  readonly peerId: string | null
  readonly chunkId: number | null
  readonly kind: MarkerKind
  readonly statement: string
  /** Whether it has been folded into a profile entry. */
  readonly consolidated: boolean
  readonly observedAt: string
  readonly createdAt: string
}

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

/** A marker observed in a chunk (or imported without one). */
export interface NewMarker {
  readonly peerId: string | null
  /** Null for markers that came from outside dreaming (an import); they are never deduplicated. */
  readonly chunkId: number | null
  readonly kind: MarkerKind
  readonly statement: string
  readonly observedAt: string
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
}

const MARKER_KINDS: readonly MarkerKind[] = ['correction', 'preference', 'rejection', 'style']

function toMarker(row: Selectable<BehavioralMarkersTable>): Marker {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    peerId: row.peer_id,
    chunkId: row.chunk_id,
    kind: row.kind,
    statement: row.statement,
    consolidated: row.consolidated === 1,
    observedAt: row.observed_at,
    createdAt: row.created_at,
  }
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

/** Behavioural markers (`behavioral_markers`) and the profile entries consolidated from them (`profile_entries`). */
export interface MarkersRepository {
  /** Every marker of the workspace, by id. */
  listAll(workspaceId: string): Promise<Marker[]>
  /** Records a marker; false when its chunk had already given it (a replay). */
  add(workspaceId: string, marker: NewMarker): Promise<boolean>
  /** Markers not yet folded into profile entries, oldest first. */
  listUnconsolidated(workspaceId: string): Promise<Marker[]>
  markConsolidated(workspaceId: string, ids: readonly number[]): Promise<void>
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
}

function requireProfileEntryQuery(query: ProfileEntryQuery): ProfileEntryQuery {
  if (typeof query !== 'object' || query === null)
    throw new StoreError('INVALID_INPUT', 'the profile entry query must be an object')
  if (query.peerId !== undefined) requireText(query.peerId, 'peerId')
  if (query.ties !== undefined && query.ties !== 'first-seen' && query.ties !== 'last-seen')
    throw new StoreError('INVALID_INPUT', "ties must be 'first-seen' or 'last-seen'")
  if (query.limit !== undefined && (!Number.isInteger(query.limit) || query.limit < 1))
    throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
  return query
}

export function createMarkersRepository(scope: RepositoryScope): MarkersRepository {
  const { db, context } = scope
  return {
    async listAll(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('behavioral_markers')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map(toMarker)
    },
    async add(workspaceId, marker) {
      requireId(workspaceId, 'workspace id')
      if (!MARKER_KINDS.includes(marker.kind)) {
        throw new StoreError('INVALID_INPUT', `marker kind must be one of ${MARKER_KINDS.join(', ')}`)
      }
      const values = {
        workspace_id: workspaceId,
        peer_id: marker.peerId === null ? null : requireText(marker.peerId, 'peerId'),
        chunk_id: marker.chunkId === null ? null : requireInteger(marker.chunkId, 'chunkId'),
        kind: marker.kind,
        statement: requireText(marker.statement, 'statement'),
        observed_at: requireText(marker.observedAt, 'observedAt'),
        created_at: context.now(),
      }
      const result = await db
        .insertInto('behavioral_markers')
        .values(values)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async listUnconsolidated(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('behavioral_markers')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .where('consolidated', '=', 0)
        .orderBy('observed_at')
        .orderBy('id')
        .execute()
      return rows.map(toMarker)
    },
    async markConsolidated(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      requireIntegers(ids, 'ids')
      if (ids.length === 0) return
      await db
        .updateTable('behavioral_markers')
        .set({ consolidated: 1 })
        .where('id', 'in', ids)
        .where(_notIndexedSqlite('workspace_id'), '=', workspaceId)
        .execute()
    },
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
            last_seen: eb.fn('max', [eb.ref('profile_entries.last_seen'), eb.val(observedAt)]),
          })),
        )
        .returningAll()
        .executeTakeFirstOrThrow()
      return toProfileEntry(row)
    },
    async profileEntries(workspaceId, query = {}) {
      requireId(workspaceId, 'workspace id')
      const { peerId, supportedOnly, ties, limit } = requireProfileEntryQuery(query)
      const rows = await db
        .selectFrom('profile_entries')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .$if(peerId !== undefined, (q) => q.where('peer_id', '=', peerId ?? ''))
        .$if(supportedOnly === true, (q) => q.whereRef('pos_evidence', '>', 'neg_evidence'))
        .orderBy('pos_evidence', 'desc')
        .$if(ties === 'last-seen', (q) => q.orderBy('last_seen', 'desc'))
        .$if(ties !== 'last-seen', (q) => q.orderBy('first_seen'))
        .orderBy('statement')
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
  }
}
