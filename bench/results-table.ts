import { pathToFileURL } from 'node:url'
import type { BenchResult, BenchRun } from './types'

/** A benchmark's rows as an aligned text table: each figure next to its raw baseline and their ratio. */
export function formatResults(rows: readonly BenchResult[]): string {
  const cells = rows.map((row) => [
    row.name,
    `${format(row.value)} ${row.unit}`,
    row.baseline === undefined ? '' : `${format(row.baseline)} ${row.unit}`,
    row.ratio === undefined ? '' : `${row.ratio.toFixed(2)}×`,
    row.notes ?? '',
  ])
  const header = ['measure', 'value', 'raw baseline', 'ratio', 'notes']
  const widths = header.map((h, i) => Math.max(h.length, ...cells.map((c) => (c[i] ?? '').length)))
  const line = (c: string[]) => `  ${c.map((v, i) => v.padEnd(widths[i] ?? 0)).join('  ')}`.trimEnd()
  return [line(header), line(widths.map((w) => '-'.repeat(w))), ...cells.map(line)].join('\n')
}

function format(n: number): string {
  if (Math.abs(n) >= 100) return n.toFixed(0)
  if (Math.abs(n) >= 1) return n.toFixed(2)
  return n.toPrecision(3)
}

/** Whether the module at `moduleUrl` is the script Node was started with (`tsx bench/x.bench.ts`). */
export function isMainModule(moduleUrl: string): boolean {
  return moduleUrl === pathToFileURL(process.argv[1] ?? '').href
}

/** Runs one benchmark on its own when its file is started directly (`--quick` as in `pnpm bench`). */
export async function runWhenMain(moduleUrl: string, run: BenchRun): Promise<void> {
  if (!isMainModule(moduleUrl)) return
  const results = await run({ quick: process.argv.includes('--quick') }, (line) => console.log(line))
  console.log(formatResults(results))
}
