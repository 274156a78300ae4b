/** Where a term first came up in a session, per author (migration 11). */
export interface TopicMentionsTable {
  workspace_id: string
  session_id: string
  peer_id: string
  term: string
  message_id: number
  created_at: string
}

/** How far the topic index has read a session: its last message read, and how many were read. */
export interface TopicProgressTable {
  workspace_id: string
  session_id: string
  last_message_id: number
  messages_read: number
}

/** A user's turn to an assistant stating a standing rule or preference (migration 12). */
export interface StandingRulesTable {
  message_id: number
  workspace_id: string
  session_id: string
  peer_id: string
  created_at: string
}
