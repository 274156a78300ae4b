import type { GraphView, InspectFilters } from 'hymem'
import { dateOf } from '../http/params'
import { predicateLabel } from '../render/format'
import { html, type SafeHtml } from '../render/html'
import { type PageFrame, renderPage, wsUrl } from '../render/layout'
import { graphCanvas, graphSummary, graphTables } from './graph-picture'
import { type GraphParams, graphSearch, MAX_GRAPH_LIMIT, toGraphData, typeColors } from './graph-query'

function select(
  name: string,
  label: string,
  values: readonly [string, string][],
  current: string | undefined,
) {
  return html`<label>${label}<select name="${name}"><option value="">any</option>${values.map(
    ([value, text]) =>
      html`<option value="${value}"${value === current ? html` selected` : null}>${text}</option>`,
  )}</select></label>`
}

function filterForm(frame: PageFrame, ws: string, params: GraphParams, filters: InspectFilters): SafeHtml {
  return html`<form class="filters" method="get" action="${wsUrl(frame, ws, 'graph')}" data-autosubmit>
<label>Entity<input type="search" name="entity" value="${params.entity ?? ''}" placeholder="e.g. api" autocomplete="off"></label>
${select(
  'predicate',
  'Predicate',
  filters.predicates.map((p) => [p.predicate, `${predicateLabel(p.predicate)} (${p.edges})`]),
  params.predicate,
)}
${select(
  'peer',
  'Peer',
  filters.peers.map((p) => [p, p]),
  params.peer,
)}
${select(
  'session',
  'Session',
  filters.sessions.map((s) => [s, s]),
  params.session,
)}
<label>Text<input type="search" name="q" value="${params.q ?? ''}" placeholder="words in a fact" autocomplete="off"></label>
<label>As of<input type="date" name="asOf" value="${dateOf(params.asOf)}"></label>
<label>Most edges<input type="number" name="limit" min="1" max="${MAX_GRAPH_LIMIT}" value="${params.limit}"></label>
<label class="check"><input type="checkbox" name="inactive" value="1"${params.inactive ? html` checked` : null}>Show stale, superseded and retracted edges (faded)</label>
<div class="actions"><button type="submit">Apply</button> <a href="${wsUrl(frame, ws, 'graph')}">Clear</a></div>
</form>`
}

/** The Graph view: filters, the picture, and tables of what it draws. */
export function graphPage(
  frame: PageFrame,
  ws: string,
  params: GraphParams,
  view: GraphView,
  filters: InspectFilters,
  focus: string | null,
): string {
  const page = `${wsUrl(frame, ws, 'graph')}${graphSearch(params)}`
  const fact = (id: number) => wsUrl(frame, ws, `fact/${id}`)
  const colors = typeColors(view)
  const data = toGraphData(view, colors, { fact, page, focus })
  const entity = (name: string) => `${wsUrl(frame, ws, 'graph')}${graphSearch(params, { entity: name })}`
  return renderPage(frame, {
    title: 'Graph',
    view: 'graph',
    graph: true,
    body: html`<h1>Graph</h1>
${filterForm(frame, ws, params, filters)}
${graphSummary(view)}
${graphCanvas(view, data, colors)}
<p class="hint">Click an entity to focus on its neighbours; click an edge to open the fact.</p>
${graphTables(view, { fact, entity })}`,
  })
}
