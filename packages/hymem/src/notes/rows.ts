import type { Note } from './types'

/**
 * A raw `notes` row. Only `search.ts` still reads rows itself (it moves onto the notes repository with the
 * shared notes ranking); everything else gets {@link Note}s from `store.notes`.
 */
export interface NoteRow {
  readonly id: string
  readonly workspace_id: string
  readonly description: string
  readonly content: string
  readonly importance: number
  readonly observer_id: string | null
  readonly observed_id: string | null
  readonly session_id: string | null
  readonly level: string
  readonly source_ids: string
  readonly times_derived: number
  readonly metadata: string
  readonly created_at: string
  readonly updated_at: string
  readonly last_accessed_at: string
  readonly archived_at: string | null
}

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

export function cosine(a: Float32Array, b: Float32Array): number {
  if (a.length !== b.length) return 0
  let dot = 0
  let na = 0
  let nb = 0
  for (let i = 0; i < a.length; i++) {
    const x = a[i] ?? 0
    const y = b[i] ?? 0
    dot += x * y
    na += x * x
    nb += y * y
  }
  return na === 0 || nb === 0 ? 0 : dot / Math.sqrt(na * nb)
}
