import { HyMemError } from '../errors'
import { recordSearch } from '../stats/search-log'
import type { SearchNotesOptions } from '../types'
import { embedOrNull, type NotesContext, optionalInteger, optionalNumber } from './context'
import { toNote } from './rows'
import type { NoteHit } from './types'

const MAX_QUERY = 10_000
/** Rank at which the keyword bonus has halved. */
const LEXICAL_RANK_DECAY = 2

interface Candidate {
  similarity: number | null
  lexicalRank: number | null
}

/**
 * Hybrid search over explicit notes: keyword (FTS5/BM25) and vector candidates, scored as cosine similarity
 * plus a bounded keyword bonus that decays with keyword rank. Vector-only hits must clear the absolute floor
 * and stay within `relativeCutoff` of the best similarity; keyword hits bypass both gates. Returned notes
 * have their last access refreshed, and the search is written to `search_log`.
 */
export async function searchNotes(
  context: NotesContext,
  workspaceId: string,
  query: string,
  options: SearchNotesOptions = {},
): Promise<NoteHit[]> {
  if (typeof query !== 'string') throw new HyMemError('INVALID_INPUT', 'query must be a string')
  const started = performance.now()
  const text = query.slice(0, MAX_QUERY)
  const limit = optionalInteger(options.limit, 'limit', 1, 1000) ?? 10
  const floor = optionalNumber(options.minSimilarity, 'minSimilarity', 0, 1) ?? context.config.minSimilarity
  const cutoff =
    optionalNumber(options.relativeCutoff, 'relativeCutoff', 0, 2) ?? context.config.relativeCutoff
  const pool = Math.max(limit * 5, 50)
  const { store, embeddings } = context

  const candidates = new Map<string, Candidate>()
  const lexical = await store.fullText.search('notes', text, { workspaceId, limit: pool })
  for (const [rank, hit] of lexical.entries()) {
    candidates.set(String(hit.id), { similarity: null, lexicalRank: rank })
  }
  const [queryVector] = text.trim() === '' ? [] : ((await embedOrNull(context, [text], 'notes-search')) ?? [])
  if (queryVector && embeddings) {
    const nearest = await store.vectors.nearest('notes', queryVector, {
      workspaceId,
      k: pool,
      model: embeddings.model,
    })
    for (const hit of nearest) {
      const id = String(hit.id)
      const existing = candidates.get(id)
      if (existing) existing.similarity = hit.similarity
      else candidates.set(id, { similarity: hit.similarity, lexicalRank: null })
    }
  }

  let rows =
    candidates.size === 0 ? [] : await loadActive(context, workspaceId, [...candidates.keys()], options)
  rows = rows.filter((row) => {
    const candidate = candidates.get(row.id)
    if (!candidate || candidate.lexicalRank !== null) return true
    return (candidate.similarity ?? 0) >= floor
  })
  const best = Math.max(-Infinity, ...rows.map((row) => candidates.get(row.id)?.similarity ?? -Infinity))
  const kept = rows.filter((row) => {
    const candidate = candidates.get(row.id)
    if (!candidate || candidate.lexicalRank !== null || cutoff === 0) return true
    return (candidate.similarity ?? 0) >= best - cutoff
  })
  const scored = kept
    .map((row) => {
      const candidate = candidates.get(row.id) ?? { similarity: null, lexicalRank: null }
      const bonus =
        candidate.lexicalRank === null
          ? 0
          : context.config.lexicalBoost / (1 + candidate.lexicalRank / LEXICAL_RANK_DECAY)
      return {
        row,
        similarity: candidate.similarity,
        score: (candidate.similarity ?? 0) + bonus,
        lexical: candidate.lexicalRank !== null,
      }
    })
    .sort(
      (a, b) => b.score - a.score || b.row.importance - a.row.importance || a.row.id.localeCompare(b.row.id),
    )
    .slice(0, limit)

  const now = store.context.now()
  const hits: NoteHit[] = scored.map(({ row, similarity, score, lexical: isLexical }) => ({
    note: toNote({ ...row, last_accessed_at: now }),
    similarity,
    score,
    lexical: isLexical,
  }))
  const ms = performance.now() - started
  if (hits.length > 0 || context.searchLog) {
    await store.transaction(async (tx) => {
      if (hits.length > 0) {
        const ids = hits.map((hit) => hit.note.id)
        await tx.db.updateTable('notes').set({ last_accessed_at: now }).where('id', 'in', ids).execute()
      }
      if (context.searchLog) {
        const entry = {
          workspaceId,
          surface: 'notes',
          query: text,
          candidates: candidates.size,
          hits: hits.length,
          topScore: hits[0]?.score ?? null,
          latencyMs: ms,
        }
        await recordSearch(tx, entry, now)
      }
    })
  }
  context.log({ kind: 'search', level: 'debug', surface: 'notes', workspaceId, hits: hits.length, ms })
  return hits
}

async function loadActive(
  context: NotesContext,
  workspaceId: string,
  ids: readonly string[],
  options: SearchNotesOptions,
) {
  let query = context.store.db
    .selectFrom('notes')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .where('id', 'in', ids)
  if (options.observerId !== undefined) query = query.where('observer_id', '=', options.observerId)
  if (options.observedId !== undefined) query = query.where('observed_id', '=', options.observedId)
  return query.execute()
}
