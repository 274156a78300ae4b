import { type Insertable, type Kysely, type Selectable, sql } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import type { BackupChunk, BackupTableName, BackupValues } from './backup-values'
import { fromChunk, toChunk } from './chunks'
import { fromDreamRun, toDreamRun } from './dream-runs'
import { fromEntityType, toEntityType } from './entity-types'
import { fromEpisode, toEpisode } from './episodes'
import { fromFeedback, toFeedback } from './feedback'
import { fromMarker, toMarker } from './markers'
import { fromPeerCard, toPeerCard } from './peer-cards'
import { fromProcedure, toStoredProcedure } from './procedures'
import type { RepositoryScope } from './scope'
import { fromScope, toScope } from './scopes'
import { selectInWorkspace } from './workspace-rows'

type Column<N extends BackupTableName> = keyof HyMemDatabase[N] & string
type Row<N extends BackupTableName> = Selectable<HyMemDatabase[N]>

/** How a backup reads one table and writes it back: over the table's own row mapper. */
export interface BackupTable<N extends BackupTableName> {
  readonly name: N
  /** A column unique in the workspace: rows are read in its order, a page at a time. Without one, whole. */
  readonly key?: Column<N>
  /** The read order of a table without a key. */
  readonly order?: readonly Column<N>[]
  /** Maps a page of rows to values (the tables that hang off a row are read here, once a page). */
  readonly read: (scope: RepositoryScope, workspaceId: string, rows: Row<N>[]) => Promise<BackupValues[N][]>
  readonly write: (value: BackupValues[N]) => Insertable<HyMemDatabase[N]>
  /**
   * The columns in which a stored row equal to the value makes it a repeat, where the table's unique keys
   * cannot say so (an `id` the store assigns). Null or absent: the unique keys decide.
   */
  readonly sameWhen?: (value: BackupValues[N]) => readonly Column<N>[] | null
  /** Writes what hangs off the value's row (missing ones only), whether the row was new or not. */
  readonly writeRelated?: (
    scope: RepositoryScope,
    tx: Kysely<HyMemDatabase>,
    value: BackupValues[N],
    id: number | undefined,
  ) => Promise<void>
}

const mapped =
  <R, V>(map: (row: R) => V) =>
  async (_scope: RepositoryScope, _workspaceId: string, rows: R[]) =>
    rows.map(map)

/** A value without its store-local id (a restore lets the target store choose its own). */
function withoutId<V extends { id: unknown }>({ id: _storeLocal, ...value }: V): Omit<V, 'id'> {
  return value
}

/** The workspace column of a `processed_chunks` row, on the engines whose table has one. */
function processedInWorkspace(scope: RepositoryScope, workspaceId: string): object {
  return scope.engine.processedChunksHaveWorkspace ? { workspace_id: workspaceId } : {}
}

async function readChunks(
  scope: RepositoryScope,
  workspaceId: string,
  rows: Row<'chunks'>[],
): Promise<BackupChunk[]> {
  const { db } = scope
  const ids = rows.map((row) => row.id)
  const marks = db.selectFrom('processed_chunks').selectAll().where('chunk_id', 'in', ids)
  const [processed, mentions] = await Promise.all([
    (scope.engine.processedChunksHaveWorkspace
      ? marks.where(sql<boolean>`workspace_id = ${workspaceId}`)
      : marks
    ).execute(),
    db
      .selectFrom('entity_mentions')
      .select(['chunk_id', 'entity'])
      .where('workspace_id', '=', workspaceId)
      .where('chunk_id', 'in', ids)
      .orderBy('entity')
      .execute(),
  ])
  return rows.map((row) => ({
    ...toChunk(row),
    processed: processed
      .filter((mark) => mark.chunk_id === row.id)
      .sort((a, b) => a.prompt_version.localeCompare(b.prompt_version))
      .map((mark) => ({
        promptVersion: mark.prompt_version,
        extractor: mark.extractor,
        processedAt: mark.processed_at,
      })),
    mentions: mentions.filter((m) => m.chunk_id === row.id).map((m) => m.entity),
  }))
}

const chunks: BackupTable<'chunks'> = {
  name: 'chunks',
  key: 'id',
  read: readChunks,
  write: fromChunk,
  sameWhen: () => ['workspace_id', 'session_id', 'first_message_id', 'last_message_id'],
  async writeRelated(scope, tx, chunk, chunkId) {
    if (chunkId === undefined) return
    if (chunk.processed.length > 0) {
      await tx
        .insertInto('processed_chunks')
        .values(
          chunk.processed.map((mark) => ({
            ...processedInWorkspace(scope, chunk.workspaceId),
            chunk_id: chunkId,
            prompt_version: mark.promptVersion,
            extractor: mark.extractor,
            processed_at: mark.processedAt,
          })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute()
    }
    if (chunk.mentions.length > 0) {
      await tx
        .insertInto('entity_mentions')
        .values(
          chunk.mentions.map((entity) => ({ workspace_id: chunk.workspaceId, chunk_id: chunkId, entity })),
        )
        .onConflict((oc) => oc.doNothing())
        .execute()
    }
  },
}

const scopes: BackupTable<'scopes'> = {
  name: 'scopes',
  key: 'id',
  async read({ db }, workspaceId, rows) {
    const links = await selectInWorkspace(db, 'scope_sessions', workspaceId)
      .where(
        'scope_id',
        'in',
        rows.map((row) => row.id),
      )
      .orderBy('session_id')
      .execute()
    return rows.map((row) => ({
      ...toScope(row),
      sessions: links
        .filter((link) => link.scope_id === row.id)
        .map((link) => ({ sessionId: link.session_id, joinedAt: link.joined_at })),
    }))
  },
  write: fromScope,
  async writeRelated(_scope, tx, value) {
    if (value.sessions.length === 0) return
    await tx
      .insertInto('scope_sessions')
      .values(
        value.sessions.map((link) => ({
          workspace_id: value.workspaceId,
          scope_id: value.id,
          session_id: link.sessionId,
          joined_at: link.joinedAt,
        })),
      )
      .onConflict((oc) => oc.doNothing())
      .execute()
  },
}

/** Every table a backup carries beyond the other repositories, in restore order (parents first). */
export const BACKUP_TABLES: { readonly [N in BackupTableName]: BackupTable<N> } = {
  chunks,
  entity_types: {
    name: 'entity_types',
    key: 'entity',
    read: mapped((row) => ({ workspaceId: row.workspace_id, ...toEntityType(row) })),
    write: (value) => fromEntityType(value.workspaceId, value),
  },
  behavioral_markers: {
    name: 'behavioral_markers',
    key: 'id',
    read: mapped((row) => withoutId(toMarker(row))),
    write: fromMarker,
    // Markers from a chunk are unique by their chunk; the others by what they say and when.
    sameWhen: (marker) =>
      marker.chunkId === null ? ['workspace_id', 'chunk_id', 'kind', 'statement', 'observed_at'] : null,
  },
  episodes: { name: 'episodes', key: 'id', read: mapped(toEpisode), write: fromEpisode },
  procedures: { name: 'procedures', key: 'id', read: mapped(toStoredProcedure), write: fromProcedure },
  extraction_feedback: {
    name: 'extraction_feedback',
    key: 'id',
    read: mapped((row) => ({ workspaceId: row.workspace_id, ...withoutId(toFeedback(row)) })),
    write: (value) => fromFeedback(value.workspaceId, value),
    sameWhen: () => ['workspace_id', 'subject', 'predicate', 'object', 'created_at', 'chunk_text', 'reason'],
  },
  scopes,
  peer_cards: {
    name: 'peer_cards',
    order: ['observer_id', 'observed_id'],
    read: mapped(toPeerCard),
    write: fromPeerCard,
  },
  dream_runs: {
    name: 'dream_runs',
    key: 'id',
    read: mapped((row) => withoutId(toDreamRun(row))),
    write: fromDreamRun,
    // The same run: same workspace, times, status, extractor, counts and timings.
    sameWhen: () => ['workspace_id', 'started_at', 'status', 'extractor', 'finished_at', 'counts', 'timings'],
  },
}
