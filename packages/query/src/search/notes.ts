import type { Note, NoteFilter, Store } from '@hymem/core-store'
import { DEFAULT_QUERY_CONFIG } from '../config'
import { explained, type RetrievalReason, type SuppressionReason } from '../reasons'
import type { NoteHit } from '../types'
import type { SearchContext } from './context'

/** Options of {@link rankNotes}. */
export interface RankNotesOptions {
  readonly workspaceId: string
  /** What to look for; searched as full text with common English words left out. */
  readonly text: string
  /** Most notes returned. */
  readonly limit: number
  /**
   * Nearest notes to the query by vector, best first (`k` at most); absent without an embedder. Errors
   * propagate, so the caller decides whether a failing index fails the search.
   */
  readonly nearest?: (k: number) => Promise<readonly { id: number | string; similarity: number }[]>
  /** Absolute cosine floor for notes found by vector only (0 disables). */
  readonly minSimilarity: number
  /** Drop vector-only notes more than this below the best similarity (0 disables). */
  readonly relativeCutoff: number
  /** Bonus of the #1 keyword hit on top of cosine similarity. @default DEFAULT_QUERY_CONFIG.lexicalBoost */
  readonly lexicalBoost?: number
  /** The keyword bonus at rank r is `lexicalBoost × k / (k + r − 1)`. @default DEFAULT_QUERY_CONFIG.lexicalRankDecayK */
  readonly lexicalRankDecayK?: number
  /** Which notes may be returned. @default not archived */
  readonly filter?: NoteFilter
  /** Also return the allowed notes the gates dropped, with the gate that dropped each. @default false */
  readonly explainDropped?: boolean
}

/** A note a precision gate dropped (see {@link RankNotesOptions.explainDropped}). */
export interface DroppedNote {
  readonly note: Note
  readonly reason: SuppressionReason
}

/** A note that passed the precision gates, with its score and why it was found. */
export interface RankedNote {
  readonly note: Note
  /** Cosine similarity to the query; null when found by keyword only (or without vector search). */
  readonly similarity: number | null
  /** Rank in the keyword list (1 = best); null when found by vector only. */
  readonly keywordRank: number | null
  /** `max(0, similarity) + lexicalBoost × k / (k + keywordRank − 1)`. */
  readonly score: number
  readonly reasons: RetrievalReason[]
}

interface Candidate {
  similarity: number | null
  keywordRank: number | null
}

/** Candidates taken from each of the keyword and vector lists. */
function poolSize(limit: number): number {
  return limit * 4
}

/**
 * Applies the two precision gates to note candidates. Vector-only candidates must reach the absolute floor,
 * then those more than `relativeCutoff` below the best similarity are dropped. Keyword hits bypass both.
 */
export function gateNotes<T extends { similarity: number | null; keywordRank: number | null }>(
  candidates: readonly T[],
  minSimilarity: number,
  relativeCutoff: number,
): T[] {
  return gateNotesExplained(candidates, minSimilarity, relativeCutoff).kept
}

/** {@link gateNotes}, also returning each dropped candidate with the gate that dropped it. */
export function gateNotesExplained<T extends { similarity: number | null; keywordRank: number | null }>(
  candidates: readonly T[],
  minSimilarity: number,
  relativeCutoff: number,
): { kept: T[]; dropped: { candidate: T; reason: SuppressionReason }[] } {
  const dropped: { candidate: T; reason: SuppressionReason }[] = []
  const floored = candidates.filter((c) => {
    if (c.keywordRank !== null || (c.similarity !== null && c.similarity >= minSimilarity)) return true
    const similarity = c.similarity ?? Number.NaN
    dropped.push({
      candidate: c,
      reason: { kind: 'below_similarity_floor', similarity, floor: minSimilarity },
    })
    return false
  })
  const best = Math.max(...floored.map((c) => c.similarity ?? Number.NEGATIVE_INFINITY))
  if (relativeCutoff <= 0 || !Number.isFinite(best)) return { kept: floored, dropped }
  const kept = floored.filter((c) => {
    if (c.keywordRank !== null || (c.similarity !== null && c.similarity >= best - relativeCutoff))
      return true
    const similarity = c.similarity ?? Number.NaN
    dropped.push({
      candidate: c,
      reason: { kind: 'below_relative_cutoff', similarity, best, cutoff: relativeCutoff },
    })
    return false
  })
  return { kept, dropped }
}

/**
 * The one ranking of explicit notes (augment and note search both use it): keyword (full text) and vector
 * candidates, restricted to the notes `filter` allows, gated (see {@link gateNotes}), scored as cosine
 * similarity plus a bounded keyword bonus that decays with keyword rank, best first (ties: more important,
 * then by id). Reads only; marking the notes accessed is the caller's business. `candidates` counts the
 * distinct notes either list returned.
 *
 * @example
 * const { notes } = await rankNotes(store, {
 *   workspaceId: 'default', text: 'deploy steps', limit: 5, minSimilarity: 0.4, relativeCutoff: 0.15,
 * })
 */
export async function rankNotes(
  store: Store,
  options: RankNotesOptions,
): Promise<{ notes: RankedNote[]; candidates: number; dropped: DroppedNote[] }> {
  const { workspaceId, limit } = options
  const pool = poolSize(limit)
  const candidates = new Map<string, Candidate>()
  const keyword = await store.fullText.search('notes', options.text, {
    workspaceId,
    skipCommonWords: true,
    limit: pool,
  })
  keyword.forEach((hit, index) => {
    candidates.set(String(hit.id), { similarity: null, keywordRank: index + 1 })
  })
  for (const hit of options.nearest ? await options.nearest(pool) : []) {
    const id = String(hit.id)
    const entry = candidates.get(id) ?? { similarity: null, keywordRank: null }
    entry.similarity = hit.similarity
    candidates.set(id, entry)
  }
  // The floor judges each candidate alone, so it can go first (unless the dropped are wanted too); the
  // cut-off waits for the allowed notes.
  const wanted = options.explainDropped
    ? [...candidates]
    : [...candidates].filter(
        ([, c]) => c.keywordRank !== null || (c.similarity !== null && c.similarity >= options.minSimilarity),
      )
  if (wanted.length === 0) return { notes: [], candidates: candidates.size, dropped: [] }

  const found = await store.notes.getByIds(
    workspaceId,
    wanted.map(([id]) => id),
    options.filter,
  )
  const { kept: gated, dropped } = gateNotesExplained(
    found.flatMap((note) => {
      const candidate = candidates.get(note.id)
      return candidate ? [{ note, ...candidate }] : []
    }),
    options.minSimilarity,
    options.relativeCutoff,
  )
  const boost = options.lexicalBoost ?? DEFAULT_QUERY_CONFIG.lexicalBoost
  const decay = options.lexicalRankDecayK ?? DEFAULT_QUERY_CONFIG.lexicalRankDecayK
  const ranked = gated.map(({ note, similarity, keywordRank }): RankedNote => {
    const bonus = keywordRank === null ? 0 : (boost * decay) / (decay + keywordRank - 1)
    const reasons: RetrievalReason[] = []
    if (similarity !== null) reasons.push({ kind: 'semantic', similarity })
    if (keywordRank !== null) reasons.push({ kind: 'keyword', source: 'notes', rank: keywordRank })
    return { note, similarity, keywordRank, score: Math.max(0, similarity ?? 0) + bonus, reasons }
  })
  ranked.sort(
    (a, b) =>
      b.score - a.score || b.note.importance - a.note.importance || a.note.id.localeCompare(b.note.id),
  )
  return {
    notes: ranked.slice(0, limit),
    candidates: candidates.size,
    dropped: dropped.map(({ candidate, reason }) => ({ note: candidate.note, reason })),
  }
}

/**
 * Explicit notes for augment (not archived; for an observed peer, notes about it or about nobody), ranked by
 * {@link rankNotes} with the engine's gates, and marked as accessed; plus the most similar of the notes the
 * gates dropped (at most `suppressedLimit`).
 */
export async function searchNotes(
  ctx: SearchContext,
  limit: number,
): Promise<{ hits: NoteHit[]; dropped: DroppedNote[] }> {
  const { config } = ctx
  const { notes, dropped } = await rankNotes(ctx.store, {
    workspaceId: ctx.workspaceId,
    text: ctx.text,
    limit,
    nearest: (k) => ctx.nearest('notes', k),
    minSimilarity: config.notesMinSimilarity,
    relativeCutoff: config.notesRelativeCutoff,
    lexicalBoost: config.lexicalBoost,
    lexicalRankDecayK: config.lexicalRankDecayK,
    ...(ctx.peerId !== undefined ? { filter: { aboutPeerOrNobody: ctx.peerId } } : {}),
    explainDropped: config.suppressedLimit > 0,
  })
  const mostSimilar = dropped
    .sort((a, b) => similarityOf(b.reason) - similarityOf(a.reason))
    .slice(0, config.suppressedLimit)
  if (notes.length === 0) return { hits: [], dropped: mostSimilar }
  await ctx.store.notes.markAccessed(
    ctx.workspaceId,
    notes.map(({ note }) => note.id),
  )
  const hits = notes.map(({ note, similarity, score, reasons }) => ({
    id: note.id,
    description: note.description,
    content: note.content,
    importance: note.importance,
    similarity,
    score,
    ...explained(reasons),
    messageIds: noteMessageIds(note),
  }))
  return { hits, dropped: mostSimilar }
}

/** The ids of the messages a note was made from. */
export function noteMessageIds(note: Note): number[] {
  return note.sourceIds.filter((id): id is number => Number.isInteger(id))
}

function similarityOf(reason: SuppressionReason): number {
  return reason.kind === 'below_similarity_floor' || reason.kind === 'below_relative_cutoff'
    ? reason.similarity
    : Number.NEGATIVE_INFINITY
}
