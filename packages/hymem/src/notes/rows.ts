import type { NotesTable, Note as StoreNote } from '@hymem/core-store'
import type { Selectable } from 'kysely'
import type { Note } from './types'

export type NoteRow = Selectable<NotesTable>

export function toNote(row: NoteRow): Note {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    description: row.description,
    content: row.content,
    importance: row.importance,
    observerId: row.observer_id,
    observedId: row.observed_id,
    sessionId: row.session_id,
    level: row.level,
    sourceIds: parseJson<string[]>(row.source_ids, []),
    timesDerived: row.times_derived,
    metadata: parseJson<Record<string, unknown>>(row.metadata, {}),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
    lastAccessedAt: row.last_accessed_at,
    archivedAt: row.archived_at,
  }
}

/** A note as the store returns it, in the facade's shape (string source ids only). */
export function fromStoreNote(note: StoreNote): Note {
  return {
    ...note,
    sourceIds: note.sourceIds.filter((id): id is string => typeof id === 'string'),
    metadata: { ...note.metadata },
  }
}

function parseJson<T>(text: string, fallback: T): T {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(fallback) === Array.isArray(value) && value !== null && typeof value === 'object'
      ? (value as T)
      : fallback
  } catch {
    return fallback
  }
}

/** The text embedded for a note: what de-duplication and search compare. */
export function noteText(description: string, content: string): string {
  return `${description}\n${content}`
}

/** Case, width and whitespace folded, trailing punctuation dropped: "the same content" without embeddings. */
export function normaliseContent(content: string): string {
  return content
    .normalize('NFKC')
    .toLowerCase()
    .replace(/\s+/g, ' ')
    .replace(/[\s.!?;:,]+$/u, '')
    .trim()
}
