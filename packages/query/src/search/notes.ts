import { sql } from 'kysely'
import type { NoteHit } from '../types'
import type { SearchContext } from './context'
import { parseIdList } from './json'

interface Candidate {
  id: string
  similarity: number | null
  keywordRank: number | null
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
  const floored = candidates.filter(
    (c) => c.keywordRank !== null || (c.similarity !== null && c.similarity >= minSimilarity),
  )
  const best = Math.max(...floored.map((c) => c.similarity ?? Number.NEGATIVE_INFINITY))
  if (relativeCutoff <= 0 || !Number.isFinite(best)) return floored
  return floored.filter(
    (c) => c.keywordRank !== null || (c.similarity !== null && c.similarity >= best - relativeCutoff),
  )
}

/**
 * Explicit notes (not archived; for an observed peer, notes about it or about nobody): FTS5 plus vector KNN,
 * gated, scored `similarity + bounded keyword bonus`, and marked as accessed.
 */
export async function searchNotes(ctx: SearchContext, limit: number): Promise<NoteHit[]> {
  const { config } = ctx
  const pool = limit * 4
  const keyword = await ctx.store.fullText.search('notes', ctx.text, {
    workspaceId: ctx.workspaceId,
    skipCommonWords: true,
    limit: pool,
  })
  const vector = await ctx.nearest('notes', pool)
  const candidates = new Map<string, Candidate>()
  keyword.forEach((hit, index) => {
    candidates.set(String(hit.id), { id: String(hit.id), similarity: null, keywordRank: index + 1 })
  })
  for (const hit of vector) {
    const id = String(hit.id)
    const entry = candidates.get(id) ?? { id, similarity: null, keywordRank: null }
    entry.similarity = hit.similarity
    candidates.set(id, entry)
  }
  const gated = gateNotes([...candidates.values()], config.notesMinSimilarity, config.notesRelativeCutoff)
  if (gated.length === 0) return []

  const peerFilter =
    ctx.peerId === undefined ? sql`1` : sql`(observed_id IS NULL OR observed_id = ${ctx.peerId})`
  const { rows: found } = await sql<{
    id: string
    description: string
    content: string
    importance: number
    source_ids: string
  }>`
    SELECT id, description, content, importance, source_ids FROM notes
    WHERE id IN (SELECT value FROM json_each(${JSON.stringify(gated.map((c) => c.id))}))
      AND +workspace_id = ${ctx.workspaceId} AND archived_at IS NULL AND ${peerFilter}`.execute(ctx.store.db)
  const rows = new Map(found.map((row) => [row.id, row]))
  const scored = gated.flatMap((c) => {
    const row = rows.get(c.id)
    if (!row) return []
    const bonus =
      c.keywordRank === null
        ? 0
        : (config.lexicalBoost * config.lexicalRankDecayK) / (config.lexicalRankDecayK + c.keywordRank - 1)
    const why: string[] = []
    if (c.similarity !== null) why.push(`semantic_${c.similarity.toFixed(2)}`)
    if (c.keywordRank !== null) why.push(`keyword:notes#${c.keywordRank}`)
    return [
      {
        id: row.id,
        description: row.description,
        content: row.content,
        importance: row.importance,
        similarity: c.similarity,
        score: Math.max(0, c.similarity ?? 0) + bonus,
        whyRetrieved: why,
        messageIds: parseIdList(row.source_ids),
      },
    ]
  })
  scored.sort((a, b) => b.score - a.score || b.importance - a.importance || a.id.localeCompare(b.id))
  const top = scored.slice(0, limit)
  if (top.length > 0) {
    await sql`UPDATE notes SET last_accessed_at = ${ctx.store.context.now()}
      WHERE id IN (SELECT value FROM json_each(${JSON.stringify(top.map((n) => n.id))}))`.execute(
      ctx.store.db,
    )
  }
  return top
}
