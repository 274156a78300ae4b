import type { VectorIndexName } from '../search/types'
import type { Chunk } from './chunks'
import type { StoredDreamRun } from './dream-runs'
import type { EntityType } from './entity-types'
import type { StoredEpisode } from './episodes'
import type { Feedback } from './feedback'
import type { Marker } from './markers'
import type { StoredPeerCard } from './peer-cards'
import type { StoredProcedure } from './procedures'
import type { Scope } from './scopes'

/** A chunk as a backup holds it: its row, its processing marks and the entities it mentions. */
export interface BackupChunk extends Chunk {
  readonly processed: readonly { promptVersion: string; extractor: string; processedAt: string }[]
  readonly mentions: readonly string[]
}

export interface BackupEntityType extends EntityType {
  readonly workspaceId: string
}

/** A marker without its store-local id; `chunkId` is the store's own. */
export type BackupMarker = Omit<Marker, 'id'>

/** An episode row as stored (JSON lists parsed). */
export type BackupEpisode = StoredEpisode

/** A procedure row as stored: `steps` is the stored JSON list, `stepsText` its searchable text. */
export type BackupProcedure = StoredProcedure

export interface BackupFeedback extends Omit<Feedback, 'id'> {
  readonly workspaceId: string
}

export interface BackupScope extends Scope {
  readonly sessions: readonly { sessionId: string; joinedAt: string }[]
}

export type BackupPeerCard = StoredPeerCard

/** A dream run's audit row, without its store-local id. */
export type BackupDreamRun = StoredDreamRun

/** The rows a backup carries, by table, in the order a restore writes them (parents before children). */
export interface BackupValues {
  readonly chunks: BackupChunk
  readonly entity_types: BackupEntityType
  readonly behavioral_markers: BackupMarker
  readonly episodes: BackupEpisode
  readonly procedures: BackupProcedure
  readonly extraction_feedback: BackupFeedback
  readonly scopes: BackupScope
  readonly peer_cards: BackupPeerCard
  readonly dream_runs: BackupDreamRun
}

export type BackupTableName = keyof BackupValues

/** A stored vector with the model and text hash it was written with. */
export interface BackupVector {
  readonly index: VectorIndexName
  readonly id: number | string
  readonly model: string
  readonly textHash: string
  readonly vector: Float32Array
}
