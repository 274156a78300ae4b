import type { DreamRunStatus, MarkerKind } from '../kernel/tables'
import type { VectorIndexName } from '../search/types'
import type { JsonObject } from './types'

/** A chunk as a backup holds it: its row, its processing marks and the entities it mentions. */
export interface BackupChunk {
  readonly id: number
  readonly workspaceId: string
  readonly sessionId: string
  readonly text: string
  readonly salienceReason: string
  /** `messages.id` in chunk order. */
  readonly messageIds: readonly number[]
  readonly firstMessageId: number
  readonly lastMessageId: number
  readonly occurredAt: string
  readonly createdAt: string
  readonly processed: readonly { promptVersion: string; extractor: string; processedAt: string }[]
  readonly mentions: readonly string[]
}

export interface BackupEntityType {
  readonly workspaceId: string
  readonly entity: string
  readonly type: string
  readonly evidence: number
  readonly updatedAt: string
}

export interface BackupMarker {
  readonly workspaceId: string
  readonly peerId: string | null
  readonly chunkId: number | null
  readonly kind: MarkerKind
  readonly statement: string
  readonly consolidated: boolean
  readonly observedAt: string
  readonly createdAt: string
}

/** An episode row as stored (JSON lists parsed). */
export interface BackupEpisode {
  readonly id: string
  readonly workspaceId: string
  readonly sessionId: string
  readonly title: string
  readonly summary: string
  readonly outcome: string | null
  readonly entities: readonly unknown[]
  readonly chunkIds: readonly number[]
  readonly messageIds: readonly number[]
  readonly startedAt: string
  readonly endedAt: string
  readonly createdAt: string
  readonly updatedAt: string
}

/** A procedure row as stored: `steps` is the stored JSON list, `stepsText` its searchable text. */
export interface BackupProcedure {
  readonly id: string
  readonly workspaceId: string
  readonly sessionId: string
  readonly name: string
  readonly description: string
  readonly triggerPhrase: string | null
  readonly steps: readonly unknown[]
  readonly stepsText: string
  readonly entities: readonly unknown[]
  readonly chunkIds: readonly number[]
  readonly messageIds: readonly number[]
  readonly createdAt: string
  readonly updatedAt: string
}

export interface BackupFeedback {
  readonly workspaceId: string
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly chunkText: string | null
  readonly reason: string | null
  readonly createdAt: string
}

export interface BackupScope {
  readonly workspaceId: string
  readonly id: string
  readonly metadata: JsonObject
  readonly createdAt: string
  readonly sessions: readonly { sessionId: string; joinedAt: string }[]
}

export interface BackupPeerCard {
  readonly workspaceId: string
  readonly observerId: string
  readonly observedId: string
  /** The stored card (a JSON list of lines). */
  readonly card: readonly unknown[]
  readonly updatedAt: string
}

/** A dream run's audit row, without its store-local id. */
export interface BackupDreamRun {
  readonly workspaceId: string
  readonly status: DreamRunStatus
  readonly skipReason: string | null
  readonly extractor: string | null
  readonly promptVersion: string | null
  readonly chunksCreated: number
  readonly chunksProcessed: number
  readonly edgesUpserted: number
  readonly llmCalls: number
  readonly promptTokens: number
  readonly completionTokens: number
  readonly counts: JsonObject
  readonly timings: JsonObject
  readonly errors: readonly unknown[]
  readonly startedAt: string
  readonly finishedAt: string | null
}

/** A stored vector with the model and text hash it was written with. */
export interface BackupVector {
  readonly index: VectorIndexName
  readonly id: number | string
  readonly model: string
  readonly textHash: string
  readonly vector: Float32Array
}
