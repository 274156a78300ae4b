import { type SqlBool, sql } from 'kysely'
import type { HonchoMemory } from '../types'
import { type ConclusionRow, pairCondition, selectConclusions } from './conclusions-source'

export interface RepresentationRequest {
  readonly workspaceId: string
  readonly observer: string
  readonly observed: string
  /** Only conclusions from these sessions. */
  readonly sessionIds?: readonly string[]
  readonly searchQuery?: string
  readonly searchTopK?: number
  readonly searchMaxDistance?: number
  readonly includeMostFrequent: boolean
  readonly maxConclusions: number
}

/**
 * Picks the conclusions of an (observer, observed) pair as Honcho does: a semantic part for `searchQuery`,
 * a most-derived part when `includeMostFrequent`, and the most recent for the rest of `maxConclusions`.
 */
export async function pickConclusions(
  memory: HonchoMemory,
  request: RepresentationRequest,
): Promise<ConclusionRow[]> {
  const total = request.maxConclusions
  const where = sql<SqlBool>`(${pairCondition(request.observer, request.observed)}${
    request.sessionIds
      ? sql` AND conclusions.session_id IN (${sql.join(request.sessionIds.length > 0 ? request.sessionIds.map((s) => sql`${s}`) : [sql`''`])})`
      : sql``
  })`
  const picked = new Map<string, ConclusionRow>()
  const take = (rows: readonly ConclusionRow[], budget: number) => {
    for (const row of rows) {
      if (picked.size >= total || budget <= 0) return
      if (picked.has(row.id)) continue
      picked.set(row.id, row)
      budget -= 1
    }
  }
  if (request.searchQuery) {
    const k = request.searchTopK ?? Math.max(1, Math.floor(total / 3))
    const hits = await memory.searchNotes(request.searchQuery, {
      workspaceId: request.workspaceId,
      limit: k,
      observerId: request.observer,
      observedId: request.observed,
      ...(request.searchMaxDistance !== undefined ? { minSimilarity: 1 - request.searchMaxDistance } : {}),
    })
    const ids = hits.map((hit) => hit.note.id)
    if (ids.length > 0) {
      const rows = await selectConclusions(memory, request.workspaceId, {
        where: sql<SqlBool>`(${where} AND conclusions.id IN (${sql.join(ids.map((id) => sql`${id}`))}))`,
      })
      const byId = new Map(rows.map((row) => [row.id, row]))
      take(
        ids.map((id) => byId.get(id)).filter((row): row is ConclusionRow => row !== undefined),
        k,
      )
    }
  }
  if (request.includeMostFrequent) {
    const budget = Math.floor(total / (request.searchQuery ? 3 : 2))
    take(
      await selectConclusions(memory, request.workspaceId, { where, orderBy: 'most-derived', limit: total }),
      budget,
    )
  }
  take(
    await selectConclusions(memory, request.workspaceId, { where, orderBy: 'newest', limit: total }),
    total,
  )
  return [...picked.values()]
}

function stamp(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ')
}

/** Honcho's representation markdown (explicit, deductive, inductive, contradictions); `""` when empty. */
export function renderRepresentation(
  rows: readonly ConclusionRow[],
  premisesOf: (row: ConclusionRow) => string[],
): string {
  const byLevel = (level: string) =>
    rows.filter((row) => row.level === level).sort((a, b) => a.created_at.localeCompare(b.created_at))
  const sections: string[] = []
  const explicit = byLevel('explicit')
  if (explicit.length > 0) {
    sections.push(
      ['## Explicit Observations', '', ...explicit.map((r) => `[${stamp(r.created_at)}] ${r.content}`)].join(
        '\n',
      ),
    )
  }
  const deductive = byLevel('deductive')
  if (deductive.length > 0) {
    const lines = deductive.flatMap((r) => {
      const premises = premisesOf(r)
      return [
        `[${stamp(r.created_at)}] ${r.content}`,
        ...(premises.length > 0 ? ['   Premises:', ...premises.map((p) => `   - ${p}`)] : []),
      ]
    })
    sections.push(['## Deductive Observations', '', ...lines].join('\n'))
  }
  const inductive = byLevel('inductive')
  if (inductive.length > 0) {
    const confidence = (r: ConclusionRow) =>
      r.times_derived >= 3 ? 'high' : r.times_derived === 2 ? 'medium' : 'low'
    sections.push(
      [
        '## Inductive Observations',
        '',
        ...inductive.map((r) => ` **Pattern** [${confidence(r)}]: ${r.content}`),
      ].join('\n'),
    )
  }
  const contradictions = byLevel('contradiction')
  if (contradictions.length > 0) {
    sections.push(
      ['## Contradictions', '', ...contradictions.map((r) => `[${stamp(r.created_at)}] ${r.content}`)].join(
        '\n',
      ),
    )
  }
  return sections.join('\n\n')
}

/** Picks and renders a representation; premises of deductive conclusions are looked up by `source_ids`. */
export async function buildRepresentation(
  memory: HonchoMemory,
  request: RepresentationRequest,
): Promise<string> {
  const rows = await pickConclusions(memory, request)
  const sourceIds = new Set<string>()
  for (const row of rows) {
    if (row.level !== 'deductive') continue
    for (const id of parseIds(row.source_ids)) sourceIds.add(id)
  }
  const premises = new Map<string, string>()
  if (sourceIds.size > 0) {
    const sources = await selectConclusions(memory, request.workspaceId, {
      where: sql<SqlBool>`conclusions.id IN (${sql.join([...sourceIds].map((id) => sql`${id}`))})`,
    })
    for (const source of sources) premises.set(source.id, source.content)
  }
  return renderRepresentation(rows, (row) =>
    parseIds(row.source_ids)
      .map((id) => premises.get(id))
      .filter((text): text is string => text !== undefined),
  )
}

function parseIds(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((id): id is string => typeof id === 'string') : []
  } catch {
    return []
  }
}
