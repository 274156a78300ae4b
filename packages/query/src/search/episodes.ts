import { sql } from 'kysely'
import { fuseLists } from '../rank/fusion'
import type { EpisodeHit, ProcedureHit, ProcedureStep } from '../types'
import type { SearchContext } from './context'
import { parseIdList, parseJson } from './json'

/** Episodes by FTS5 over title + summary and, with an embedder, vector KNN; fused by RRF. */
export async function searchEpisodes(ctx: SearchContext, limit: number): Promise<EpisodeHit[]> {
  const pool = limit * 3
  const keyword = await ctx.store.fullText.search('episodes', ctx.text, {
    workspaceId: ctx.workspaceId,
    skipCommonWords: true,
    limit: pool,
    ...(ctx.scopeSessionIds ? { sessionIds: ctx.scopeSessionIds } : {}),
  })
  const vector = await ctx.nearest('episodes', pool)
  const fused = fuseLists(
    [
      { kind: 'keyword', label: 'episodes', items: keyword.map((h) => ({ key: String(h.id) })) },
      {
        kind: 'vector',
        label: 'episodes',
        items: vector.map((h) => ({ key: String(h.id), similarity: h.similarity })),
      },
    ],
    { ...ctx.config, fusion: 'rrf' },
  )
  if (fused.length === 0) return []
  const { rows } = await sql<{
    id: string
    session_id: string
    title: string
    summary: string
    outcome: string | null
    message_ids: string
  }>`
    SELECT id, session_id, title, summary, outcome, message_ids FROM episodes
    WHERE id IN (SELECT value FROM json_each(${JSON.stringify(fused.map((item) => item.key))}))
      AND +workspace_id = ${ctx.workspaceId}`.execute(ctx.store.db)
  const byId = new Map(rows.map((row) => [row.id, row]))
  const sessions = ctx.scopeSessionIds ? new Set(ctx.scopeSessionIds) : null
  const out: EpisodeHit[] = []
  for (const item of fused) {
    const row = byId.get(item.key)
    if (!row || (sessions && !sessions.has(row.session_id))) continue
    out.push({
      id: row.id,
      sessionId: row.session_id,
      title: row.title,
      summary: row.summary,
      outcome: row.outcome,
      score: item.score,
      whyRetrieved: item.whyRetrieved,
      messageIds: parseIdList(row.message_ids),
    })
    if (out.length >= limit) break
  }
  return out
}

/** Procedures by FTS5 over name, description and steps; scored `1/(k + rank)`. */
export async function searchProcedures(ctx: SearchContext, limit: number): Promise<ProcedureHit[]> {
  const keyword = await ctx.store.fullText.search('procedures', ctx.text, {
    workspaceId: ctx.workspaceId,
    skipCommonWords: true,
    limit,
    ...(ctx.scopeSessionIds ? { sessionIds: ctx.scopeSessionIds } : {}),
  })
  if (keyword.length === 0) return []
  const { rows } = await sql<{
    id: string
    session_id: string
    name: string
    description: string
    steps: string
    message_ids: string
  }>`
    SELECT id, session_id, name, description, steps, message_ids FROM procedures
    WHERE id IN (SELECT value FROM json_each(${JSON.stringify(keyword.map((hit) => String(hit.id)))}))
      AND +workspace_id = ${ctx.workspaceId}`.execute(ctx.store.db)
  const byId = new Map(rows.map((row) => [row.id, row]))
  return keyword.flatMap((hit, index) => {
    const row = byId.get(String(hit.id))
    if (!row) return []
    return [
      {
        id: row.id,
        sessionId: row.session_id,
        name: row.name,
        description: row.description,
        steps: parseSteps(row.steps),
        score: 1 / (ctx.config.rrfK + index + 1),
        whyRetrieved: [`keyword:procedures#${index + 1}`],
        messageIds: parseIdList(row.message_ids),
      },
    ]
  })
}

/** Steps from the JSON column, tolerating malformed rows (kept in order, renumbered from 1). */
export function parseSteps(text: string): ProcedureStep[] {
  const raw = parseJson<unknown>(text, [])
  if (!Array.isArray(raw)) return []
  const steps: { order: number; text: string; tool?: string }[] = []
  for (const [index, item] of raw.entries()) {
    if (typeof item === 'string') steps.push({ order: index + 1, text: item })
    else if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string') {
      const { order, text: stepText, tool } = item as { order?: unknown; text: string; tool?: unknown }
      steps.push({
        order: typeof order === 'number' && Number.isFinite(order) ? order : index + 1,
        text: stepText,
        ...(typeof tool === 'string' && tool !== '' ? { tool } : {}),
      })
    }
  }
  steps.sort((a, b) => a.order - b.order)
  return steps.map((step, index) => ({ ...step, order: index + 1 }))
}
