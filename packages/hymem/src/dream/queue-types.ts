import type { BackgroundDreamStatus } from '../runtime/types'

/** Pending dreaming work. */
export interface DreamBacklog {
  /** Messages not yet chunked (after each session's last chunked message). */
  readonly pendingMessages: number
  /** Chunks not yet extracted under the current prompt version. */
  readonly pendingChunks: number
  /**
   * Whether a dream of the workspace is running: in this instance (foreground or background), or in any
   * process holding the workspace's dream lock on the same database (another server).
   */
  readonly running: boolean
  /** Sessions with pending messages or unextracted chunks. */
  readonly sessions: Record<string, { pendingMessages: number; pendingChunks: number }>
}

/** A workspace with work waiting for a dream (see {@link HyMemQueue.pending}). */
export interface PendingWorkspace {
  readonly workspaceId: string
  readonly pendingMessages: number
  readonly pendingChunks: number
  /** As {@link DreamBacklog.running}: a dream of it runs here or in another process. */
  readonly running: boolean
}

/** One total a queue status holds (a session's, or the workspace's with `sessionId: null`). */
export interface QueueTotal {
  readonly sessionId: string | null
  readonly total: number
}

/** `memory.queue`: the dreaming work waiting, and when it runs. */
export interface HyMemQueue {
  /** Pending work of a workspace (the default one unless named). */
  backlog(workspaceId?: string): Promise<DreamBacklog>
  /** Every workspace of the database with pending dream work, in id order (what `hymem worker` picks from). */
  pending(): Promise<PendingWorkspace[]>
  /** Background dream with cooldown, on a forked connection (or in the dream worker); never blocks the caller. */
  schedule(workspaceId?: string): void
  /** Whether a background dream of the workspace runs, and when `schedule()` has the next one due. */
  background(workspaceId?: string): BackgroundDreamStatus
  /**
   * Raises each stored total to the one given and returns the highest seen (per session id, `null` for the
   * workspace), so a queue status never shrinks while its work is counted again by another server.
   */
  holdTotals(workspaceId: string, totals: readonly QueueTotal[]): Promise<Map<string | null, number>>
}
