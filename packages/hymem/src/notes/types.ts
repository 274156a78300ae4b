import type { Note } from '@hymem/core-store'

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
