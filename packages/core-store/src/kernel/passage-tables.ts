import type { Generated } from 'kysely'

/** A stretch of one long message (migration 10). */
export interface PassagesTable {
  id: Generated<number>
  message_id: number
  workspace_id: string
  session_id: string
  peer_id: string
  /** 0, 1, … in the order of the message's text. */
  ordinal: number
  /** `[start_char, end_char)` in the message's content (UTF-16 code units). */
  start_char: number
  end_char: number
  text: string
}

export interface PassageEmbeddingsTable {
  passage_id: number
  workspace_id: string
  model: string
  text_hash: string
  vector: Uint8Array
}
