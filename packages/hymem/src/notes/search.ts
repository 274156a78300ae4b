import { rankNotes } from '@hymem/query'
import { HyMemError } from '../errors'
import { recordSearch } from '../stats/search-log'
import { embedOrNull, type NotesContext, optionalInteger, optionalNumber } from './context'
import type { NoteHit, SearchNotesOptions } from './types'

const MAX_QUERY = 10_000

/**
 * Hybrid search over explicit notes, ranked by the query engine's one notes ranking (`rankNotes`: keyword
 * and vector candidates, cosine similarity plus a bounded keyword bonus, the similarity floor and relative
 * cut-off for vector-only hits). Returned notes have their last access refreshed, and the search is written
 * to `search_log`.
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
  const { store, embeddings } = context

  const [queryVector] = text.trim() === '' ? [] : ((await embedOrNull(context, [text], 'notes-search')) ?? [])
  const { notes, candidates } = await rankNotes(store, {
    workspaceId,
    text,
    limit,
    ...(queryVector && embeddings
      ? {
          nearest: (k: number) =>
            store.vectors.nearest('notes', queryVector, { workspaceId, k, model: embeddings.model }),
        }
      : {}),
    minSimilarity: floor,
    relativeCutoff: cutoff,
    lexicalBoost: context.config.lexicalBoost,
    filter: {
      ...(options.observerId !== undefined ? { observerId: options.observerId } : {}),
      ...(options.observedId !== undefined ? { observedId: options.observedId } : {}),
    },
  })

  const now = store.context.now()
  const hits: NoteHit[] = notes.map(({ note, similarity, score, keywordRank }) => ({
    note: { ...note, lastAccessedAt: now },
    similarity,
    score,
    lexical: keywordRank !== null,
  }))
  const ms = performance.now() - started
  if (hits.length > 0 || context.searchLog) {
    await store.transaction(async (tx) => {
      if (hits.length > 0) {
        await tx.notes.markAccessed(
          workspaceId,
          hits.map((hit) => hit.note.id),
          now,
        )
      }
      if (context.searchLog) {
        const entry = {
          surface: 'notes',
          query: text,
          candidates,
          hits: hits.length,
          topScore: hits[0]?.score ?? null,
          latencyMs: ms,
        }
        await recordSearch(tx, workspaceId, entry, now)
      }
    })
  }
  context.log({ kind: 'search', level: 'debug', surface: 'notes', workspaceId, hits: hits.length, ms })
  return hits
}
