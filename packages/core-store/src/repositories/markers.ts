import type { Insertable, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { BehavioralMarkersTable, MarkerKind } from '../kernel/tables'
import { requireInteger, requireIntegers, requireText } from './checks'
import { requireId } from './json'
import { createProfileEntryMethods, type ProfileEntryMethods } from './profile-entries'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

export type { ProfileEntry, ProfileEntryQuery, ProfileObservation } from './profile-entries'

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

/** A marker observed in a chunk (or imported without one). */
export interface NewMarker {
  readonly peerId: string | null
  /** Null for markers that came from outside dreaming (an import); they are never deduplicated. */
  readonly chunkId: number | null
  readonly kind: MarkerKind
  readonly statement: string
  readonly observedAt: string
}

const MARKER_KINDS: readonly MarkerKind[] = ['correction', 'preference', 'rejection', 'style']

export function toMarker(row: Selectable<BehavioralMarkersTable>): Marker {
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

export function fromMarker(marker: Omit<Marker, 'id'>): Insertable<BehavioralMarkersTable> {
  return {
    workspace_id: marker.workspaceId,
    peer_id: marker.peerId,
    chunk_id: marker.chunkId,
    kind: marker.kind,
    statement: marker.statement,
    consolidated: marker.consolidated ? 1 : 0,
    observed_at: marker.observedAt,
    created_at: marker.createdAt,
  }
}

/** Behavioural markers (`behavioral_markers`) and the profile entries consolidated from them (`profile_entries`). */
export interface MarkersRepository extends ProfileEntryMethods {
  /** Every marker of the workspace, by id. */
  listAll(workspaceId: string): Promise<Marker[]>
  /** Records a marker; false when its chunk had already given it (a replay). */
  add(workspaceId: string, marker: NewMarker): Promise<boolean>
  /** Markers not yet folded into profile entries, oldest first. */
  listUnconsolidated(workspaceId: string): Promise<Marker[]>
  markConsolidated(workspaceId: string, ids: readonly number[]): Promise<void>
}

export function createMarkersRepository(scope: RepositoryScope): MarkersRepository {
  const { db, context } = scope
  return {
    ...createProfileEntryMethods(scope),
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'behavioral_markers', workspaceId).orderBy('id').execute()
      return rows.map(toMarker)
    },
    async add(workspaceId, marker) {
      requireId(workspaceId, 'workspace id')
      if (!MARKER_KINDS.includes(marker.kind)) {
        throw new StoreError('INVALID_INPUT', `marker kind must be one of ${MARKER_KINDS.join(', ')}`)
      }
      const values = fromMarker({
        workspaceId,
        peerId: marker.peerId === null ? null : requireText(marker.peerId, 'peerId'),
        chunkId: marker.chunkId === null ? null : requireInteger(marker.chunkId, 'chunkId'),
        kind: marker.kind,
        statement: requireText(marker.statement, 'statement'),
        consolidated: false,
        observedAt: requireText(marker.observedAt, 'observedAt'),
        createdAt: context.now(),
      })
      const result = await db
        .insertInto('behavioral_markers')
        .values(values)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
    async listUnconsolidated(workspaceId) {
      const rows = await selectInWorkspace(db, 'behavioral_markers', workspaceId)
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
        .where(scope.engine.notIndexed('workspace_id'), '=', workspaceId)
        .execute()
    },
  }
}
