import type { Note, Page, PageRequest } from '@hymem/core-store'

/** An explicit memory: a one-line description plus its content. */
export type { Note }

/** One search result. */
export interface NoteHit {
  readonly note: Note
  /** Cosine similarity of the query to description + content; null without embeddings or for a keyword-only hit. */
  readonly similarity: number | null
  /** Ranking score: similarity plus a bounded keyword bonus. */
  readonly score: number
  /** Whether the note matched the query's keywords (such hits bypass both gates). */
  readonly lexical: boolean
}

/** Tunables of explicit notes. */
export interface NotesConfig {
  /** Combined (description + content) similarity at or above which a save may update an existing note. */
  readonly dedupeThreshold: number
  /** Content-only similarity also required for the update (the second gate). */
  readonly dedupeContentThreshold: number
  /** Absolute similarity floor for vector hits. */
  readonly minSimilarity: number
  /** Vector hits more than this below the best similarity are dropped. */
  readonly relativeCutoff: number
  /** Largest score bonus of a keyword match (decays with keyword rank). */
  readonly lexicalBoost: number
  /** Default `staleDays` of `forget`. */
  readonly forgetAfterDays: number
  /** Default `maxImportance` of `forget`. */
  readonly forgetMaxImportance: number
}

/** Defaults of {@link NotesConfig}: the gates of seed 001 (0.9 / 0.9 de-dup, 0.4 floor, 0.15 cut-off), forget after 180 days at importance ≤ 1. */
export const DEFAULT_NOTES_CONFIG: NotesConfig = Object.freeze({
  dedupeThreshold: 0.9,
  dedupeContentThreshold: 0.9,
  minSimilarity: 0.4,
  relativeCutoff: 0.15,
  lexicalBoost: 0.1,
  forgetAfterDays: 180,
  forgetMaxImportance: 1,
})

type Ws = { readonly workspaceId?: string }

/** Input of {@link HyMemNotes.remember}. */
export interface RememberInput {
  /** One-line summary used for ranking and de-duplication. */
  readonly description: string
  readonly content: string
  /** Higher survives forgetting longer. @default 1 */
  readonly importance?: number
  readonly observerId?: string
  readonly observedId?: string
  readonly sessionId?: string
  /** @default 'explicit' */
  readonly level?: string
  readonly sourceIds?: readonly string[]
  readonly metadata?: Record<string, unknown>
  /**
   * What makes an existing note "the same": `'similar'` passes the two embedding gates (an identical normalised
   * content without embeddings); `'exact'` needs the identical normalised content, level and session, as
   * Honcho's conclusions do. @default 'similar'
   */
  readonly dedupe?: 'similar' | 'exact'
}

/** Options of {@link HyMemNotes.search}. */
export interface SearchNotesOptions {
  readonly workspaceId?: string
  /** @default 10 */
  readonly limit?: number
  /** Absolute similarity floor (vector hits only; 0 disables). @default notes.minSimilarity */
  readonly minSimilarity?: number
  /** Drop hits more than this below the best one (0 disables). @default notes.relativeCutoff */
  readonly relativeCutoff?: number
  readonly observerId?: string
  readonly observedId?: string
}

/** Input of {@link HyMemNotes.archive}. */
export interface ForgetInput {
  /** Archive this one note; otherwise sweep stale, unimportant notes. */
  readonly id?: string
  /** Notes not accessed for this many days are stale. @default notes.forgetAfterDays (180) */
  readonly staleDays?: number
  /** Only notes at or below this importance are swept. @default notes.forgetMaxImportance (1) */
  readonly maxImportance?: number
  /** false (default) is a dry run that only reports. */
  readonly apply?: boolean
  /** Most notes listed in the result (the count is always the true total). @default 100 */
  readonly limit?: number
}

/** Result of {@link HyMemNotes.archive}. */
export interface ForgetResult {
  /** How many notes the criteria hit: exactly what `apply` archives (or archived). */
  readonly matched: number
  /** At most `limit` of them, stalest first. */
  readonly notes: Note[]
  readonly applied: boolean
  /** Whether `notes` was cut at `limit`. */
  readonly truncated: boolean
}

/** `memory.notes`: explicit memories (Honcho's conclusions), with two-gated de-duplication. */
export interface HyMemNotes {
  /** Saves a note, or updates the one it duplicates (`deduplicated: true`). */
  remember(input: RememberInput, options?: Ws): Promise<{ note: Note; deduplicated: boolean }>
  search(query: string, options?: SearchNotesOptions): Promise<NoteHit[]>
  /** Archived notes are returned only with `includeArchived`. */
  get(id: string, options?: Ws & { readonly includeArchived?: boolean }): Promise<Note | null>
  /**
   * A page of notes, most recently updated first (`reverse`: oldest first): active ones, or only the
   * archived ones with `archived`.
   */
  list(options?: Ws & { readonly archived?: boolean } & PageRequest): Promise<Page<Note>>
  /**
   * Soft-archives one note (`id`) or sweeps stale, unimportant ones; a dry run unless `apply`. Archived notes
   * come back with `restore`; `memory.erase.note` deletes for good.
   */
  archive(input: ForgetInput, options?: Ws): Promise<ForgetResult>
  /** Un-archives a note and refreshes its last access; null when no such note. */
  restore(id: string, options?: Ws): Promise<Note | null>
}
