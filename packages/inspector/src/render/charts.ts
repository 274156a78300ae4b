import { type HtmlChild, html, type SafeHtml } from './html'

/** One series of a chart; `null` is a gap. */
export interface ChartSeries {
  readonly name: string
  readonly color: string
  readonly values: readonly (number | null)[]
}

export interface ChartInput {
  readonly title: string
  /** One label per x position (a day, a run). */
  readonly labels: readonly string[]
  readonly series: readonly ChartSeries[]
  readonly format?: (value: number) => string
}

const WIDTH = 640
const HEIGHT = 200
const PAD = { left: 52, right: 12, top: 12, bottom: 28 }
const PLOT_W = WIDTH - PAD.left - PAD.right
const PLOT_H = HEIGHT - PAD.top - PAD.bottom

function niceMax(max: number): number {
  if (max <= 0) return 1
  const step = 10 ** Math.floor(Math.log10(max))
  return Math.ceil(max / step) * step
}

const round = (n: number) => Math.round(n * 10) / 10

function frame(input: ChartInput, top: number, body: HtmlChild): SafeHtml {
  const format = input.format ?? ((n: number) => String(round(n)))
  const first = input.labels[0] ?? ''
  const last = input.labels.at(-1) ?? ''
  return html`<figure class="chart">
<figcaption>${input.title}</figcaption>
<svg viewBox="0 0 ${WIDTH} ${HEIGHT}" role="img" aria-label="${input.title}">
<line x1="${PAD.left}" y1="${PAD.top + PLOT_H}" x2="${WIDTH - PAD.right}" y2="${PAD.top + PLOT_H}" class="axis"/>
<line x1="${PAD.left}" y1="${PAD.top}" x2="${PAD.left}" y2="${PAD.top + PLOT_H}" class="axis"/>
<text x="${PAD.left - 6}" y="${PAD.top + 4}" text-anchor="end" class="tick">${format(top)}</text>
<text x="${PAD.left - 6}" y="${PAD.top + PLOT_H}" text-anchor="end" class="tick">0</text>
<text x="${PAD.left}" y="${HEIGHT - 8}" class="tick">${first}</text>
${input.labels.length > 1 ? html`<text x="${WIDTH - PAD.right}" y="${HEIGHT - 8}" text-anchor="end" class="tick">${last}</text>` : null}
${body}
</svg>
${legend(input.series)}
</figure>`
}

function legend(series: readonly ChartSeries[]): SafeHtml {
  return html`<ul class="legend">${series.map(
    (s) =>
      html`<li><svg viewBox="0 0 10 10" class="swatch" aria-hidden="true"><rect width="10" height="10" fill="${s.color}"/></svg>${s.name}</li>`,
  )}</ul>`
}

/** Stacked bars, one stack per label. */
export function barChart(input: ChartInput): SafeHtml {
  const n = Math.max(1, input.labels.length)
  const totals = input.labels.map((_, i) => input.series.reduce((sum, s) => sum + (s.values[i] ?? 0), 0))
  const top = niceMax(Math.max(0, ...totals))
  const slot = PLOT_W / n
  const barW = Math.max(1, Math.min(40, slot * 0.8))
  const format = input.format ?? ((v: number) => String(round(v)))
  const bars = input.labels.map((label, i) => {
    let y = PAD.top + PLOT_H
    return input.series.map((s) => {
      const value = s.values[i] ?? 0
      if (value <= 0) return null
      const h = (value / top) * PLOT_H
      y -= h
      const x = PAD.left + i * slot + (slot - barW) / 2
      return html`<rect x="${round(x)}" y="${round(y)}" width="${round(barW)}" height="${round(h)}" fill="${s.color}"><title>${label}: ${s.name} ${format(value)}</title></rect>`
    })
  })
  return frame(input, top, bars)
}

/** Lines with a dot per value. */
export function lineChart(input: ChartInput): SafeHtml {
  const n = input.labels.length
  const all = input.series.flatMap((s) => s.values.filter((v): v is number => v !== null))
  const top = niceMax(Math.max(0, ...all))
  const format = input.format ?? ((v: number) => String(round(v)))
  const x = (i: number) => round(PAD.left + (n <= 1 ? PLOT_W / 2 : (i / (n - 1)) * PLOT_W))
  const y = (v: number) => round(PAD.top + PLOT_H - (v / top) * PLOT_H)
  const lines = input.series.map((s) => {
    const points = s.values.flatMap((v, i) => (v === null ? [] : [`${x(i)},${y(v)}`]))
    return html`<polyline points="${points.join(' ')}" fill="none" stroke="${s.color}" stroke-width="2"/>${s.values.map(
      (v, i) =>
        v === null
          ? null
          : html`<circle cx="${x(i)}" cy="${y(v)}" r="3" fill="${s.color}"><title>${input.labels[i] ?? ''}: ${s.name} ${format(v)}</title></circle>`,
    )}`
  })
  return frame(input, top, lines)
}
