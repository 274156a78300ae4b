import type { NewMessage } from '@hymem/core-store'

/** One session's share of a batch given to {@link HyMem.logStream}. */
export interface SessionBatch {
  readonly sessionId: string
  readonly messages: readonly NewMessage[]
}

/** What {@link HyMem.logStream} stored: messages in all, and per session. */
export interface LogStreamResult {
  readonly messages: number
  readonly sessions: Record<string, number>
}
