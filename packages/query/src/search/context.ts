import type { Store, VectorHit, VectorIndexName } from '@hymem/core-store'
import type { QueryConfig } from '../config'
import type { QueryLogger } from '../types'
import type { PeerMentions } from './peer-mentions'

/** What every search step of one augment shares. */
export interface SearchContext {
  readonly store: Store
  readonly config: QueryConfig
  readonly workspaceId: string
  readonly peerId: string | undefined
  /** Sessions the caller asked for (messages are additionally filtered by `peerId`). */
  readonly sessionIds: readonly string[] | undefined
  /** Sessions chunks, episodes and procedures are limited to: the caller's, else the observed peer's. */
  readonly scopeSessionIds: readonly string[] | undefined
  /** The user's message, searched as full text with common English words left out. */
  readonly text: string
  /** The workspace's peers the message names (none when `peerMentionBoost` is 0). */
  readonly mentions: Promise<PeerMentions>
  /** Nearest neighbours in an index; `[]` without an embedder or when the index fails (reported to the log). */
  readonly nearest: (index: VectorIndexName, k: number) => Promise<VectorHit[]>
  /**
   * Cosine similarity of the query to the stored vectors of `ids`; empty without an embedder or when the
   * index fails (reported to the log). Ids without a vector are absent.
   */
  readonly similarities: (
    index: VectorIndexName,
    ids: readonly (number | string)[],
  ) => Promise<Map<number | string, number>>
  readonly log: QueryLogger | undefined
}
