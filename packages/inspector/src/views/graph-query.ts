import type { Edge, GraphQuery, GraphView } from 'hymem'
import { type GraphData, TYPE_PALETTE, UNTYPED_COLOR } from '../graph-data'
import { asOfParam, intParam, textParam } from '../http/params'
import { edgeState } from '../render/edges'

export const DEFAULT_GRAPH_LIMIT = 200
export const MAX_GRAPH_LIMIT = 2_000

/** The graph filters as they appear in the URL (`?entity=&predicate=&peer=&session=&q=&inactive=1&asOf=&limit=`). */
export interface GraphParams {
  readonly entity?: string
  readonly predicate?: string
  readonly peer?: string
  readonly session?: string
  readonly q?: string
  readonly inactive: boolean
  readonly asOf?: string
  readonly limit: number
}

export function parseGraphParams(query: Record<string, string>): GraphParams {
  const pick = (name: string) => textParam(query[name])
  const params: Record<string, unknown> = {
    inactive: query.inactive === '1' || query.inactive === 'on',
    limit: intParam(query.limit, 'limit', { min: 1, max: MAX_GRAPH_LIMIT, fallback: DEFAULT_GRAPH_LIMIT }),
  }
  for (const name of ['entity', 'predicate', 'peer', 'session', 'q'] as const) {
    const value = pick(name)
    if (value !== undefined) params[name] = value
  }
  const asOf = asOfParam(query.asOf)
  if (asOf !== undefined) params.asOf = asOf
  return params as unknown as GraphParams
}

/** The facade query for these filters. */
export function toGraphQuery(workspaceId: string, params: GraphParams): GraphQuery {
  return {
    workspaceId,
    includeInactive: params.inactive,
    limit: params.limit,
    ...(params.entity !== undefined ? { entity: params.entity } : {}),
    ...(params.predicate !== undefined ? { predicate: params.predicate } : {}),
    ...(params.peer !== undefined ? { peerId: params.peer } : {}),
    ...(params.session !== undefined ? { sessionId: params.session } : {}),
    ...(params.q !== undefined ? { text: params.q } : {}),
    ...(params.asOf !== undefined ? { asOf: params.asOf } : {}),
  }
}

/** The filters back as a query string (for links that keep them), with overrides. */
export function graphSearch(
  params: GraphParams,
  overrides: Partial<Record<string, string | undefined>> = {},
): string {
  const entries: Record<string, string | undefined> = {
    entity: params.entity,
    predicate: params.predicate,
    peer: params.peer,
    session: params.session,
    q: params.q,
    inactive: params.inactive ? '1' : undefined,
    asOf: params.asOf?.slice(0, 10),
    limit: params.limit === DEFAULT_GRAPH_LIMIT ? undefined : String(params.limit),
    ...overrides,
  }
  const search = new URLSearchParams()
  for (const [key, value] of Object.entries(entries))
    if (value !== undefined && value !== '') search.set(key, value)
  const text = search.toString()
  return text === '' ? '' : `?${text}`
}

/** Entity types present, most common first, each with its palette colour. */
export function typeColors(view: GraphView): Map<string, string> {
  const counts = new Map<string, number>()
  for (const node of view.nodes)
    if (node.type !== null) counts.set(node.type, (counts.get(node.type) ?? 0) + 1)
  const ordered = [...counts.entries()].sort((a, b) => b[1] - a[1] || a[0].localeCompare(b[0]))
  return new Map(ordered.map(([type], i) => [type, TYPE_PALETTE[i % TYPE_PALETTE.length]!]))
}

/**
 * An edge's state on the picture's day: an edge superseded after `asOf` was still current then (the query
 * only returns edges valid at `asOf`).
 */
export function stateAt(edge: Edge, asOf: string | null): ReturnType<typeof edgeState> {
  const state = edgeState(edge)
  return asOf !== null && state === 'superseded' ? 'active' : state
}

/** The browser's copy of a graph picture. */
export function toGraphData(
  view: GraphView,
  colors: Map<string, string>,
  links: { fact: (id: number) => string; page: string; focus: string | null },
): GraphData {
  return {
    nodes: view.nodes.map((n) => ({
      id: n.id,
      type: n.type,
      color: n.type === null ? UNTYPED_COLOR : (colors.get(n.type) ?? UNTYPED_COLOR),
    })),
    edges: view.edges.map((e) => ({
      id: e.id,
      source: e.subject,
      target: e.object,
      predicate: e.predicate,
      confidence: e.confidence,
      derived: e.derived,
      inactive: stateAt(e, view.asOf) !== 'active',
      href: links.fact(e.id),
    })),
    pageUrl: links.page,
    focus: links.focus,
  }
}

/** JSON safe inside a `<script type="application/json">` element. */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029')
}
