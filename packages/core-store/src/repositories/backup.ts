import type { VectorIndexName } from '../search/types'
import type {
  BackupChunk,
  BackupDreamRun,
  BackupEntityType,
  BackupEpisode,
  BackupFeedback,
  BackupMarker,
  BackupPeerCard,
  BackupProcedure,
  BackupScope,
  BackupVector,
} from './backup-values'

export type * from './backup-values'

/**
 * What a backup needs beyond the other repositories: every row of the derived tables (chunks with their
 * processing marks and mentions, entity types, markers, episodes, procedures, extraction feedback, scopes,
 * peer cards, dream runs, stored vectors) read a page at a time, and written back only where absent, so a
 * restore into a non-empty memory adds nothing twice and can be run again.
 */
export interface BackupRepository {
  chunks(workspaceId: string): AsyncIterable<BackupChunk>
  entityTypes(workspaceId: string): Promise<BackupEntityType[]>
  /** Markers by id; `chunkId` is the store's own. */
  markers(workspaceId: string): AsyncIterable<BackupMarker>
  episodes(workspaceId: string): AsyncIterable<BackupEpisode>
  procedures(workspaceId: string): AsyncIterable<BackupProcedure>
  feedback(workspaceId: string): Promise<BackupFeedback[]>
  scopes(workspaceId: string): Promise<BackupScope[]>
  peerCards(workspaceId: string): Promise<BackupPeerCard[]>
  /** Dream runs, oldest first. */
  dreamRuns(workspaceId: string): Promise<BackupDreamRun[]>
  /** The stored vectors of these rows of the workspace (rows without one are absent). */
  vectors(
    index: VectorIndexName,
    workspaceId: string,
    ids: readonly (number | string)[],
  ): Promise<BackupVector[]>

  /**
   * Stores a chunk (its session must exist) unless one over the same messages exists, then adds its
   * missing processing marks and mentions. Returns the chunk's id in this store and whether it was new.
   */
  insertChunkIfAbsent(chunk: Omit<BackupChunk, 'id'>): Promise<{ id: number; inserted: boolean }>
  insertEntityTypeIfAbsent(entityType: BackupEntityType): Promise<boolean>
  insertMarkerIfAbsent(marker: BackupMarker): Promise<boolean>
  insertEpisodeIfAbsent(episode: BackupEpisode): Promise<boolean>
  insertProcedureIfAbsent(procedure: BackupProcedure): Promise<boolean>
  insertFeedbackIfAbsent(feedback: BackupFeedback): Promise<boolean>
  /** Stores a scope unless it exists, and adds its missing session links either way. */
  insertScopeIfAbsent(scope: BackupScope): Promise<boolean>
  insertPeerCardIfAbsent(card: BackupPeerCard): Promise<boolean>
  /** A dream run is the same run when its workspace, times, status, extractor, counts and timings match. */
  insertDreamRunIfAbsent(run: BackupDreamRun): Promise<boolean>
}
