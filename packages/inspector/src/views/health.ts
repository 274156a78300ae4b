import type { DreamRun, HealthView } from 'hymem'
import { barChart, lineChart } from '../render/charts'
import { formatMs, formatNumber, formatShare, formatTime } from '../render/format'
import { html, type SafeHtml } from '../render/html'
import { type PageFrame, renderPage } from '../render/layout'

const durationMs = (run: DreamRun) =>
  run.finishedAt === null ? null : Math.max(0, Date.parse(run.finishedAt) - Date.parse(run.startedAt))

function dreamSection(dreams: readonly DreamRun[]): SafeHtml {
  if (dreams.length === 0) return html`<p class="muted">No dream has run in this workspace yet.</p>`
  const runs = [...dreams].reverse()
  const labels = runs.map((r) => `#${r.id} ${r.startedAt.slice(0, 10)}`)
  return html`<div class="charts">
${barChart({ title: 'Dream duration', labels, series: [{ name: 'duration', color: '#0072b2', values: runs.map(durationMs) }], format: formatMs })}
${barChart({
  title: 'Chunks extracted and facts written',
  labels,
  series: [
    { name: 'chunks', color: '#56b4e9', values: runs.map((r) => r.chunksProcessed) },
    { name: 'facts', color: '#009e73', values: runs.map((r) => r.edgesUpserted) },
  ],
})}
${barChart({
  title: 'LLM tokens',
  labels,
  series: [
    { name: 'prompt', color: '#cc79a7', values: runs.map((r) => r.promptTokens) },
    { name: 'completion', color: '#e69f00', values: runs.map((r) => r.completionTokens) },
  ],
  format: formatNumber,
})}
</div>
<div class="table-scroll"><table>
<thead><tr><th scope="col">Run</th><th scope="col">Started</th><th scope="col">Status</th><th scope="col">Duration</th><th scope="col">Chunks</th><th scope="col">Facts</th><th scope="col">LLM calls</th><th scope="col">Tokens</th><th scope="col">Errors</th></tr></thead>
<tbody>${dreams.map((r) => {
    const ms = durationMs(r)
    return html`<tr><td>${r.id}</td><td>${formatTime(r.startedAt)}</td><td><span class="badge">${r.status}</span>${r.skipReason ? html` <span class="muted">${r.skipReason}</span>` : null}</td><td>${ms === null ? '—' : formatMs(ms)}</td><td>${r.chunksProcessed}</td><td>${r.edgesUpserted}</td><td>${r.llmCalls}</td><td>${formatNumber(r.promptTokens + r.completionTokens)}</td><td>${r.errors.length}</td></tr>`
  })}</tbody></table></div>`
}

function searchSection(health: HealthView): SafeHtml {
  const days = health.searchDays
  if (days.length === 0) return html`<p class="muted">No searches logged yet.</p>`
  const labels = days.map((d) => d.day)
  const total = days.reduce((n, d) => n + d.searches, 0)
  const empty = days.reduce((n, d) => n + d.empty, 0)
  return html`<p class="summary">${formatNumber(total)} searches over ${days.length} day${days.length === 1 ? '' : 's'}, ${formatShare(empty / total)} returned nothing.</p>
<div class="charts">
${barChart({
  title: 'Searches per day',
  labels,
  series: [
    { name: 'with results', color: '#009e73', values: days.map((d) => d.searches - d.empty) },
    { name: 'empty', color: '#d55e00', values: days.map((d) => d.empty) },
  ],
})}
${lineChart({
  title: 'Empty-result rate',
  labels,
  series: [
    {
      name: 'empty share (%)',
      color: '#d55e00',
      values: days.map((d) => Math.round((d.empty / d.searches) * 100)),
    },
  ],
  format: (v) => `${Math.round(v)}%`,
})}
${lineChart({
  title: 'Latency',
  labels,
  series: [
    { name: 'p50', color: '#0072b2', values: days.map((d) => d.p50Ms) },
    { name: 'p95', color: '#e69f00', values: days.map((d) => d.p95Ms) },
  ],
  format: formatMs,
})}
</div>`
}

/** Dreams and search health: dream runs and search-log figures as charts over time. */
export function healthPage(frame: PageFrame, health: HealthView): string {
  return renderPage(frame, {
    title: 'Dreams & search',
    view: 'health',
    body: html`<h1>Dreams &amp; search health</h1>
<section aria-labelledby="dreams-heading"><h2 id="dreams-heading">Dream runs</h2>${dreamSection(health.dreams)}</section>
<section aria-labelledby="search-heading"><h2 id="search-heading">Search log</h2>${searchSection(health)}</section>`,
  })
}
