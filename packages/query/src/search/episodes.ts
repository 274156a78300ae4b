import { fuseLists } from '../rank/fusion'
import { explained } from '../reasons'
import type { EpisodeHit, ProcedureHit } from '../types'
import type { SearchContext } from './context'

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
      { kind: 'keyword', source: 'episodes', items: keyword.map((h) => ({ key: String(h.id) })) },
      {
        kind: 'vector',
        items: vector.map((h) => ({ key: String(h.id), similarity: h.similarity })),
      },
    ],
    { ...ctx.config, fusion: 'rrf' },
  )
  if (fused.length === 0) return []
  const found = await ctx.store.episodes.getByIds(
    ctx.workspaceId,
    fused.map((item) => item.key),
  )
  const byId = new Map(found.map((episode) => [episode.id, episode]))
  const sessions = ctx.scopeSessionIds ? new Set(ctx.scopeSessionIds) : null
  const out: EpisodeHit[] = []
  for (const item of fused) {
    const episode = byId.get(item.key)
    if (!episode || (sessions && !sessions.has(episode.sessionId))) continue
    out.push({
      id: episode.id,
      sessionId: episode.sessionId,
      title: episode.title,
      summary: episode.summary,
      outcome: episode.outcome,
      score: item.score,
      ...explained(item.reasons),
      messageIds: [...episode.messageIds],
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
  const found = await ctx.store.procedures.getByIds(
    ctx.workspaceId,
    keyword.map((hit) => String(hit.id)),
  )
  const byId = new Map(found.map((procedure) => [procedure.id, procedure]))
  return keyword.flatMap((hit, index) => {
    const procedure = byId.get(String(hit.id))
    if (!procedure) return []
    return [
      {
        id: procedure.id,
        sessionId: procedure.sessionId,
        name: procedure.name,
        description: procedure.description,
        steps: procedure.steps.map((step) => ({ ...step })),
        score: 1 / (ctx.config.rrfK + index + 1),
        ...explained([{ kind: 'keyword', source: 'procedures', rank: index + 1 }]),
        messageIds: [...procedure.messageIds],
      },
    ]
  })
}
