import type { GraphView } from 'hymem'
import type { GraphData } from '../graph-data'
import { UNTYPED_COLOR } from '../graph-data'
import { stateBadge } from '../render/edges'
import { entityLabel, formatNumber, predicateLabel } from '../render/format'
import { html, type SafeHtml, trusted } from '../render/html'
import { scriptJson } from './graph-query'

/** Rows of the edge and entity tables (the picture itself may draw more). */
const MAX_ROWS = 300

/** "Showing 200 of 20,000 edges (19,800 hidden ...)". */
export function graphSummary(view: GraphView): SafeHtml {
  const shown = view.edges.length
  const asOf = view.asOf ? html` as of <time datetime="${view.asOf}">${view.asOf.slice(0, 10)}</time>` : null
  if (view.total === 0)
    return html`<p class="summary" id="graph-summary" role="status">No edges match${asOf}.</p>`
  return html`<p class="summary" id="graph-summary" role="status">Showing ${formatNumber(shown)} of ${formatNumber(view.total)} edges${asOf}, highest confidence first${
    view.hidden > 0
      ? html`; <strong>${formatNumber(view.hidden)} hidden</strong> (raise the limit or narrow the filters)`
      : null
  }.</p>`
}

function legend(colors: Map<string, string>, hasUntyped: boolean): SafeHtml {
  const swatch = (color: string) =>
    html`<svg viewBox="0 0 10 10" class="swatch" aria-hidden="true"><circle cx="5" cy="5" r="5" fill="${color}"/></svg>`
  return html`<ul class="legend" aria-label="Entity types">${[...colors.entries()].map(
    ([type, color]) => html`<li>${swatch(color)}${type}</li>`,
  )}${hasUntyped ? html`<li>${swatch(UNTYPED_COLOR)}no type</li>` : null}
<li><svg viewBox="0 0 24 10" class="swatch wide" aria-hidden="true"><line x1="0" y1="5" x2="24" y2="5" stroke="#555" stroke-width="2" stroke-dasharray="4 3"/></svg>derived</li>
<li><svg viewBox="0 0 24 10" class="swatch wide" aria-hidden="true"><line x1="0" y1="5" x2="24" y2="5" stroke="#555" stroke-width="2" opacity="0.3"/></svg>stale, superseded or retracted</li></ul>`
}

/** The canvas the graph bundle draws into, its data, legend and controls. */
export function graphCanvas(view: GraphView, data: GraphData, colors: Map<string, string>): SafeHtml {
  const label = `Knowledge graph: ${view.nodes.length} entities and ${view.edges.length} edges. The tables below list them.`
  return html`<div class="graph-wrap">
<div id="graph" class="graph" role="img" aria-label="${label}"></div>
<div class="graph-tools">
<button type="button" id="graph-reset" hidden>Show the whole picture</button>
<span id="graph-focus" aria-live="polite"></span>
</div>
</div>
<script type="application/json" id="graph-data">${trusted(scriptJson(data))}</script>
${legend(
  colors,
  view.nodes.some((n) => n.type === null),
)}`
}

/** Keyboard- and screen-reader-friendly tables of what the picture draws. */
export function graphTables(
  view: GraphView,
  links: { fact: (id: number) => string; entity: (name: string) => string },
): SafeHtml {
  const nodes = [...view.nodes]
    .sort((a, b) => b.degree - a.degree || a.id.localeCompare(b.id))
    .slice(0, MAX_ROWS)
  const edges = view.edges.slice(0, MAX_ROWS)
  const cut = (shown: number, all: number, what: string) =>
    shown < all
      ? html`<p class="muted">Listing ${shown} of the ${all} ${what} in the picture; narrow the filters to list the rest.</p>`
      : null
  return html`<section aria-labelledby="edges-heading">
<h2 id="edges-heading">Edges</h2>
<div class="table-scroll"><table class="edges">
<thead><tr><th scope="col">Subject</th><th scope="col">Predicate</th><th scope="col">Object</th><th scope="col">Confidence</th><th scope="col">State now</th></tr></thead>
<tbody>${edges.map(
    (e) => html`<tr>
<td><a href="${links.entity(e.subject)}">${entityLabel(e.subject)}</a></td>
<td><a href="${links.fact(e.id)}" class="fact-link">${predicateLabel(e.predicate)}</a></td>
<td><a href="${links.entity(e.object)}">${entityLabel(e.object)}</a></td>
<td>${e.confidence.toFixed(2)}</td>
<td>${stateBadge(e)}</td>
</tr>`,
  )}</tbody>
</table></div>
${cut(edges.length, view.edges.length, 'edges')}
</section>
<section aria-labelledby="entities-heading">
<h2 id="entities-heading">Entities</h2>
<ul class="entities">${nodes.map(
    (n) =>
      html`<li><a href="${links.entity(n.id)}">${entityLabel(n.id)}</a> <span class="muted">${n.type ?? 'no type'} · ${n.degree}</span></li>`,
  )}</ul>
${cut(nodes.length, view.nodes.length, 'entities')}
</section>`
}
