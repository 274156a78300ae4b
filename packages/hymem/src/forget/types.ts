import type { Purge } from '@hymem/core-store'

/**
 * The receipt of a deletion: what was forgotten (ids, never content), rows removed by kind, and how far the
 * purge is. `rows-removed`: no read returns the content any more; `done`: it is gone from the database
 * file, its write-ahead log and the Markdown files as well.
 */
export type DeletionReceipt = Purge

/** Options of the `forget*` methods. */
export interface ForgetOptions {
  readonly workspaceId?: string
  /**
   * Wait until the content is gone from disk too (the receipt is then `done`). Otherwise the call returns
   * once every read excludes the content, and the rest of the purge runs in the background. @default false
   */
  readonly wait?: boolean
}

/** `memory.erase`: forgetting for good, with deletion receipts. */
export interface HyMemErase {
  /**
   * Forgets a session: its messages and everything derived from them (chunks, mentions, vectors, evidence,
   * facts resting only on them — facts with other evidence are recomputed — episodes, procedures, the
   * summary, markers and profile entries, notes recorded in it or citing it, LLM responses that saw it).
   * Every read excludes it when this resolves; the purge from disk (full-text indexes, WAL, USER.md and
   * MEMORY.md) follows in the background unless `wait`. The session id stays as an inactive, empty record.
   * Idempotent; an unknown session gives an empty receipt.
   */
  session(sessionId: string, options?: ForgetOptions): Promise<DeletionReceipt>
  /** Forgets a whole workspace (its row too), like {@link HyMemErase.session}. */
  workspace(workspaceId: string, options?: Omit<ForgetOptions, 'workspaceId'>): Promise<DeletionReceipt>
  /** Forgets messages by public id (ids of other workspaces or unknown ones are ignored). */
  messages(messageIds: readonly string[], options?: ForgetOptions): Promise<DeletionReceipt>
  /** Forgets every message a peer wrote in the workspace (the peer itself stays). */
  peerMessages(peerId: string, options?: ForgetOptions): Promise<DeletionReceipt>
  /** Forgets a note (archived or not) and the notes derived from it; null when no such note. */
  note(id: string, options?: ForgetOptions): Promise<DeletionReceipt | null>
  /**
   * Forgets one fact (a graph edge, by id): its evidence, vector and the facts inferred over it; facts it had
   * superseded become current again. Its source messages stay. Null when the workspace has no such fact.
   */
  fact(edgeId: number, options?: ForgetOptions): Promise<DeletionReceipt | null>
  /** The workspace's deletion receipts, newest first. @default limit 20 */
  receipts(options?: { readonly workspaceId?: string; readonly limit?: number }): Promise<DeletionReceipt[]>
  /** Finishes every unfinished purge (of one workspace, or all) now, and returns their receipts. */
  finish(options?: { readonly workspaceId?: string }): Promise<DeletionReceipt[]>
}
