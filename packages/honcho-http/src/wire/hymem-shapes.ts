import type { DeletionReceipt, Note } from 'hymem'

/** A deletion receipt on the wire (snake_case, like Honcho's own objects). */
export interface WireDeletionReceipt {
  id: number
  workspace_id: string
  kind: string
  target: string
  message_count: number
  status: string
  removed: Record<string, number>
  requested_at: string
  rows_removed_at: string | null
  finished_at: string | null
}

export function receiptOut(receipt: DeletionReceipt): WireDeletionReceipt {
  return {
    id: receipt.id,
    workspace_id: receipt.workspaceId,
    kind: receipt.kind,
    target: receipt.target,
    message_count: receipt.messageCount,
    status: receipt.status,
    removed: { ...receipt.removed },
    requested_at: receipt.requestedAt,
    rows_removed_at: receipt.rowsRemovedAt,
    finished_at: receipt.finishedAt,
  }
}

/** An explicit note on the wire. */
export interface WireNote {
  id: string
  description: string
  content: string
  importance: number
  observer_id: string | null
  observed_id: string | null
  session_id: string | null
  level: string
  source_ids: readonly (string | number)[]
  metadata: Record<string, unknown>
  created_at: string
  updated_at: string
  last_accessed_at: string
  archived_at: string | null
}

export function noteOut(note: Note): WireNote {
  return {
    id: note.id,
    description: note.description,
    content: note.content,
    importance: note.importance,
    observer_id: note.observerId,
    observed_id: note.observedId,
    session_id: note.sessionId,
    level: note.level,
    source_ids: note.sourceIds,
    metadata: note.metadata,
    created_at: note.createdAt,
    updated_at: note.updatedAt,
    last_accessed_at: note.lastAccessedAt,
    archived_at: note.archivedAt,
  }
}
