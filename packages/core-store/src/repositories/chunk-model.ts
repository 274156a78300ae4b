import type { Selectable } from 'kysely'
import type { ChunksTable } from '../kernel/tables'
import { parseArray } from './json'

/** A salient stretch of a session's messages, the unit extraction works on. */
export interface Chunk {
  readonly id: number
  readonly workspaceId: string
  readonly sessionId: string
  readonly text: string
  readonly salienceReason: string
  /** `messages.id` this chunk was built from. */
  readonly messageIds: readonly number[]
  readonly firstMessageId: number
  readonly lastMessageId: number
  readonly occurredAt: string
  readonly createdAt: string
}

export function toChunk(row: Selectable<ChunksTable>): Chunk {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    text: row.text,
    salienceReason: row.salience_reason,
    messageIds: parseArray<number>(row.message_ids),
    firstMessageId: row.first_message_id,
    lastMessageId: row.last_message_id,
    occurredAt: row.occurred_at,
    createdAt: row.created_at,
  }
}
