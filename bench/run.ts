/**
 * Runs every `bench/*.bench.ts` and prints each figure next to its raw baseline.
 *
 *   pnpm bench [--quick] [--only store,augment] [--json]
 *
 * With --json the last line of output is one JSON object keyed by benchmark name; each benchmark's rows end
 * with its own `wall time` (seconds, including its setup).
 */
import { readdirSync } from 'node:fs'
import { dirname, join } from 'node:path'
import { fileURLToPath, pathToFileURL } from 'node:url'
import { parseArgs } from 'node:util'
import { formatResults } from './results-table'
import type { BenchResult, BenchRun } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const { values } = parseArgs({
  options: {
    quick: { type: 'boolean', default: false },
    json: { type: 'boolean', default: false },
    only: { type: 'string' },
  },
})

const only = values.only?.split(',').map((name) => name.trim())
const files = readdirSync(here)
  .filter((file) => file.endsWith('.bench.ts'))
  .sort()
  .filter((file) => !only || only.includes(file.replace('.bench.ts', '')))

const results: Record<string, BenchResult[]> = {}
const failed: string[] = []
const allStarted = performance.now()
const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`)

for (const file of files) {
  const name = file.replace('.bench.ts', '')
  const module = (await import(pathToFileURL(join(here, file)).href)) as { run?: BenchRun }
  if (typeof module.run !== 'function') {
    say(`${name}: no exported run(), skipped`)
    continue
  }
  const started = performance.now()
  say(`\n▶ ${name}${values.quick ? ' (quick)' : ''}`)
  let rows: BenchResult[] = []
  try {
    rows = await module.run({ quick: values.quick }, say)
  } catch (error) {
    // One broken benchmark must not hide the others' figures; the exit code still reports it.
    failed.push(name)
    say(`  failed: ${error instanceof Error ? (error.stack ?? error.message) : String(error)}`)
  }
  const seconds = (performance.now() - started) / 1000
  results[name] = [
    ...rows,
    { name: 'wall time', unit: 's', value: seconds, notes: 'this benchmark, setup included' },
  ]
  say(formatResults(results[name]))
}
const wallTimes = Object.entries(results).map(
  ([name, rows]) => `${name} ${(rows.at(-1)?.value ?? 0).toFixed(1)} s`,
)
say(`\nwall time per benchmark: ${wallTimes.join(', ')}`)
say(
  `total ${((performance.now() - allStarted) / 1000).toFixed(1)} s${failed.length > 0 ? `, failed: ${failed.join(', ')}` : ''}`,
)

if (values.json) process.stdout.write(`${JSON.stringify(results)}\n`)
if (failed.length > 0) process.exitCode = 1
