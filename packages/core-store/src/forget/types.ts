import type { PurgeKind, PurgeStatus } from '../kernel/tables'

export type { PurgeKind, PurgeStatus } from '../kernel/tables'

/** What to forget, within one workspace. Message ids are internal `messages.id`. */
export type ForgetTarget =
  | { readonly kind: 'workspace' }
  | { readonly kind: 'session'; readonly sessionId: string }
  | { readonly kind: 'messages'; readonly messageIds: readonly number[] }
  | { readonly kind: 'peer-messages'; readonly peerId: string }
  | { readonly kind: 'note'; readonly noteId: string }
  | { readonly kind: 'fact'; readonly edgeId: number }

/**
 * Rows removed or rebuilt by a purge, by kind: `messages`, `chunks`, `mentions`, `vectors`, `evidence`,
 * `facts` (removed), `factsRecomputed`, `factsReopened` (a superseding fact was forgotten), `derivedFacts`,
 * `episodes`, `procedures`, `summariesCleared`, `markers`, `profileEntries` (removed), `profileEntriesRecounted`,
 * `notes`, `feedback`, `entityTypes`, `llmCache`, `searchLog`, `sessions`, `peers`. Kinds with nothing
 * removed are absent.
 */
export type PurgeCounts = Readonly<Record<string, number>>

/**
 * A deletion request and its receipt: what was forgotten (ids, never content) and how many rows of each
 * kind went. `rows-removed`: every read already excludes the content; `done`: it is gone from disk too.
 */
export interface Purge {
  readonly id: number
  readonly workspaceId: string
  readonly kind: PurgeKind
  /** The forgotten session, peer, note or fact id; '' for a workspace or a message list. */
  readonly target: string
  /** How many messages the request named (sessions and peers: their messages at request time). */
  readonly messageCount: number
  readonly status: PurgeStatus
  readonly removed: PurgeCounts
  readonly requestedAt: string
  readonly rowsRemovedAt: string | null
  readonly finishedAt: string | null
}

/** What the on-disk step did. */
export interface PurgeCompaction {
  readonly purge: Purge
  /** Full-text indexes rewritten without the forgotten terms. */
  readonly optimized: readonly string[]
  /** False when another connection kept the write-ahead log busy; the purge stays `rows-removed`. */
  readonly checkpointed: boolean
}
