import type { Conclusion, ConclusionFilter } from '@hymem/core-store'
import type { HonchoMemory } from '../types'

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

/** The conclusions of one (observer, observed) pair, optionally only from some sessions. */
function pairFilter(request: RepresentationRequest): ConclusionFilter {
  return {
    op: 'and',
    filters: [
      { op: 'eq', field: 'observerId', value: request.observer },
      { op: 'eq', field: 'observedId', value: request.observed },
      ...(request.sessionIds
        ? [{ op: 'in', field: 'sessionId', values: request.sessionIds } satisfies ConclusionFilter]
        : []),
    ],
  }
}

/**
 * Picks the conclusions of an (observer, observed) pair as Honcho does: a semantic part for `searchQuery`,
 * a most-derived part when `includeMostFrequent`, and the most recent for the rest of `maxConclusions`.
 */
export async function pickConclusions(
  memory: HonchoMemory,
  request: RepresentationRequest,
): Promise<Conclusion[]> {
  const conclusions = memory.conclusions
  const total = request.maxConclusions
  const pair = pairFilter(request)
  const picked = new Map<string, Conclusion>()
  const take = (rows: readonly Conclusion[], budget: number) => {
    for (const row of rows) {
      if (picked.size >= total || budget <= 0) return
      if (picked.has(row.id)) continue
      picked.set(row.id, row)
      budget -= 1
    }
  }
  if (request.searchQuery) {
    const k = request.searchTopK ?? Math.max(1, Math.floor(total / 3))
    const hits = await memory.notes.search(request.searchQuery, {
      workspaceId: request.workspaceId,
      limit: k,
      observerId: request.observer,
      observedId: request.observed,
      ...(request.searchMaxDistance !== undefined ? { minSimilarity: 1 - request.searchMaxDistance } : {}),
    })
    const ids = hits.map((hit) => hit.note.id)
    if (ids.length > 0) {
      const rows = await conclusions.find(request.workspaceId, {
        filter: { op: 'and', filters: [pair, { op: 'in', field: 'id', values: ids }] },
      })
      const byId = new Map(rows.map((row) => [row.id, row]))
      take(
        ids.map((id) => byId.get(id)).filter((row): row is Conclusion => row !== undefined),
        k,
      )
    }
  }
  if (request.includeMostFrequent) {
    const budget = Math.floor(total / (request.searchQuery ? 3 : 2))
    take(
      await conclusions.find(request.workspaceId, { filter: pair, order: 'most-derived', limit: total }),
      budget,
    )
  }
  take(await conclusions.find(request.workspaceId, { filter: pair, order: 'newest', limit: total }), total)
  return [...picked.values()]
}

function stamp(iso: string): string {
  return iso.slice(0, 19).replace('T', ' ')
}

/** A graph fact about the shared world (projects, services), not about the observed peer. */
function isWorld(row: Conclusion): boolean {
  return row.metadata.scope === 'world'
}

/**
 * Honcho's representation markdown (explicit, deductive, inductive, contradictions) about the observed
 * peer, then the shared-world facts the observed peer took part in, apart and labelled; `""` when empty.
 */
export function renderRepresentation(
  all: readonly Conclusion[],
  premisesOf: (row: Conclusion) => string[],
): string {
  const rows = all.filter((row) => !isWorld(row))
  const world = all.filter(isWorld).sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  const byLevel = (level: string) =>
    rows.filter((row) => row.level === level).sort((a, b) => a.createdAt.localeCompare(b.createdAt))
  const sections: string[] = []
  const explicit = byLevel('explicit')
  if (explicit.length > 0) {
    sections.push(
      ['## Explicit Observations', '', ...explicit.map((r) => `[${stamp(r.createdAt)}] ${r.content}`)].join(
        '\n',
      ),
    )
  }
  const deductive = byLevel('deductive')
  if (deductive.length > 0) {
    const lines = deductive.flatMap((r) => {
      const premises = premisesOf(r)
      return [
        `[${stamp(r.createdAt)}] ${r.content}`,
        ...(premises.length > 0 ? ['   Premises:', ...premises.map((p) => `   - ${p}`)] : []),
      ]
    })
    sections.push(['## Deductive Observations', '', ...lines].join('\n'))
  }
  const inductive = byLevel('inductive')
  if (inductive.length > 0) {
    const confidence = (r: Conclusion) =>
      r.timesDerived >= 3 ? 'high' : r.timesDerived === 2 ? 'medium' : 'low'
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
      ['## Contradictions', '', ...contradictions.map((r) => `[${stamp(r.createdAt)}] ${r.content}`)].join(
        '\n',
      ),
    )
  }
  if (world.length > 0) {
    sections.push(
      [
        '## Shared World (projects, services; not about this peer)',
        '',
        ...world.map((r) => `[${stamp(r.createdAt)}] ${r.content}`),
      ].join('\n'),
    )
  }
  return sections.join('\n\n')
}

/** Picks and renders a representation; premises of deductive conclusions are looked up by their source ids. */
export async function buildRepresentation(
  memory: HonchoMemory,
  request: RepresentationRequest,
): Promise<string> {
  const rows = await pickConclusions(memory, request)
  const sourceIds = new Set<string>()
  for (const row of rows) {
    if (row.level !== 'deductive') continue
    for (const id of row.sourceIds) sourceIds.add(id)
  }
  const premises = new Map<string, string>()
  if (sourceIds.size > 0) {
    const sources = await memory.conclusions.find(request.workspaceId, {
      filter: { op: 'in', field: 'id', values: [...sourceIds] },
    })
    for (const source of sources) premises.set(source.id, source.content)
  }
  return renderRepresentation(rows, (row) =>
    row.sourceIds.map((id) => premises.get(id)).filter((text): text is string => text !== undefined),
  )
}
