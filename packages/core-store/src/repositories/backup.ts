import type { VectorIndexName } from '../search/types'
import type { BackupChunk, BackupTableName, BackupValues, BackupVector } from './backup-values'

export type * from './backup-values'

/**
 * What a backup needs beyond the other repositories: every row of the derived tables (chunks with their
 * processing marks and mentions, entity types, markers, episodes, procedures, extraction feedback, scopes,
 * peer cards, dream runs, stored vectors) read a page at a time, and written back only where absent, so a
 * restore into a non-empty memory adds nothing twice and can be run again.
 */
export interface BackupRepository {
  /** Every row of one table of the workspace, in key order, read a page at a time. */
  rows<N extends BackupTableName>(table: N, workspaceId: string): AsyncIterable<BackupValues[N]>
  /**
   * Stores a row unless the same one is stored (and, either way, what hangs off it and is missing: a
   * scope's session links). False when it was there. Chunks go through {@link insertChunkIfAbsent}.
   */
  insertIfAbsent<N extends Exclude<BackupTableName, 'chunks'>>(
    table: N,
    value: BackupValues[N],
  ): Promise<boolean>
  /**
   * Stores a chunk (its session must exist) unless one over the same messages exists, then adds its
   * missing processing marks and mentions. Returns the chunk's id in this store and whether it was new.
   */
  insertChunkIfAbsent(chunk: Omit<BackupChunk, 'id'>): Promise<{ id: number; inserted: boolean }>
  /** The stored vectors of these rows of the workspace (rows without one are absent). */
  vectors(
    index: VectorIndexName,
    workspaceId: string,
    ids: readonly (number | string)[],
  ): Promise<BackupVector[]>
}
