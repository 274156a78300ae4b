import type { GraphView, TimelineView } from 'hymem'
import { barChart } from '../render/charts'
import { tripleText } from '../render/edges'
import { formatTime } from '../render/format'
import { html, type SafeHtml } from '../render/html'
import { type PageFrame, renderPage, wsUrl } from '../render/layout'
import { graphCanvas, graphSummary } from './graph-picture'
import { toGraphData, typeColors } from './graph-query'

const DAY_MS = 86_400_000

/** Every calendar day from the first change to `last` (inclusive), as `YYYY-MM-DD`. */
export function daySpan(first: string, last: string): string[] {
  const days: string[] = []
  const end = Date.parse(`${last}T00:00:00Z`)
  for (let t = Date.parse(`${first}T00:00:00Z`); t <= end && days.length < 20_000; t += DAY_MS)
    days.push(new Date(t).toISOString().slice(0, 10))
  return days
}

const COLORS = { appeared: '#009e73', superseded: '#e69f00', retracted: '#d55e00' }

function eventsList(frame: PageFrame, ws: string, timeline: TimelineView): SafeHtml {
  if (timeline.events.length === 0)
    return html`<p class="muted">Nothing has happened yet: dream over a conversation first.</p>`
  return html`<ol class="events">${timeline.events.map(
    (e) =>
      html`<li><time datetime="${e.at}">${formatTime(e.at)}</time> <span class="badge event-${e.kind}">${e.kind}</span> ${
        e.edgeId === null
          ? tripleText(e)
          : html`<a href="${wsUrl(frame, ws, `fact/${e.edgeId}`)}">${tripleText(e)}</a>`
      }</li>`,
  )}</ol>`
}

/** The Timeline view: changes per day, a slider that redraws the graph as of a day, and the latest changes. */
export function timelinePage(
  frame: PageFrame,
  ws: string,
  timeline: TimelineView,
  at: string,
  days: readonly string[],
  view: GraphView,
): string {
  const byDay = new Map(timeline.days.map((d) => [d.day, d]))
  const chart = barChart({
    title: 'Changes per day',
    labels: days,
    series: (['appeared', 'superseded', 'retracted'] as const).map((kind) => ({
      name: kind,
      color: COLORS[kind],
      values: days.map((d) => byDay.get(d)?.[kind] ?? 0),
    })),
  })
  const index = Math.max(0, days.indexOf(at))
  const fact = (id: number) => wsUrl(frame, ws, `fact/${id}`)
  const colors = typeColors(view)
  const data = toGraphData(view, colors, {
    fact,
    page: `${wsUrl(frame, ws, 'timeline')}?at=${at}`,
    focus: null,
  })
  return renderPage(frame, {
    title: 'Timeline',
    view: 'timeline',
    graph: true,
    body: html`<h1>Timeline</h1>
${chart}
<form class="slider" method="get" action="${wsUrl(frame, ws, 'timeline')}" data-graph-json="${wsUrl(frame, ws, 'graph.json')}" data-days="${days.join(',')}" id="timeline-form">
<label for="timeline-slider">Graph as of <output id="timeline-day" for="timeline-slider">${at}</output></label>
<input type="range" id="timeline-slider" min="0" max="${Math.max(0, days.length - 1)}" step="1" value="${index}" aria-valuetext="${at}">
<label>Day<input type="date" name="at" value="${at}" min="${days[0] ?? at}" max="${days.at(-1) ?? at}" id="timeline-date"></label>
<button type="submit">Show</button>
</form>
${graphSummary(view)}
${graphCanvas(view, data, colors)}
<section aria-labelledby="events-heading">
<h2 id="events-heading">Latest changes</h2>
${eventsList(frame, ws, timeline)}
</section>`,
  })
}
