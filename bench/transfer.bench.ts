/**
 * Export and import of a large memory, each in its own process so its peak resident memory (maxRSS) is its
 * own: a store of 200k messages (quick: 20k) in 200 sessions is exported to a JSONL file and imported into a
 * fresh store. The baseline is the peak memory of a process that only opens the store and closes it, so the
 * ratio shows what streaming the dump costs on top. A streamed dump keeps peak memory flat as the store grows.
 * Embeddings are off in every process: with an embedder, import embeds every message it brings in (USE-lite:
 * about 100 a second, half an hour for this store), which is the embedder's cost, not the transfer's.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/transfer.bench.ts [--quick]
 */
import { execFileSync } from 'node:child_process'
import { mkdtempSync, rmSync, statSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { createHyMem, type NewMessage } from 'hymem'
import { runWhenMain } from './results-table'
import { prng, pseudoWords, sentenceMaker, zipfPicker } from './synthetic'
import type { BenchOptions, BenchResult } from './types'

const here = dirname(fileURLToPath(import.meta.url))
const SESSIONS = 200
const BATCH = 1000

interface ChildFigures {
  readonly lines: number
  readonly seconds: number
  readonly maxRssMb: number
}

function child(mode: string, root: string, file: string): ChildFigures {
  const out = execFileSync(
    process.execPath,
    ['--conditions=@hymem/source', '--import', 'tsx', join(here, 'transfer-child.ts'), mode, root, file],
    { cwd: resolve(here, '..'), encoding: 'utf8', maxBuffer: 1 << 20 },
  )
  return JSON.parse(out.trim().split('\n').at(-1)!) as ChildFigures
}

async function seed(root: string, messages: number): Promise<void> {
  const rand = prng(11)
  const sentence = sentenceMaker(zipfPicker(pseudoWords(4000), rand), rand)
  const memory = await createHyMem({ root, searchLog: false, embeddings: null })
  const perSession = messages / SESSIONS
  for (let s = 0; s < SESSIONS; s++) {
    for (let at = 0; at < perSession; at += BATCH) {
      const batch: NewMessage[] = Array.from({ length: Math.min(BATCH, perSession - at) }, (_, i) => ({
        peerId: (at + i) % 2 === 0 ? 'user' : 'assistant',
        content: sentence(),
        createdAt: new Date(Date.UTC(2026, 0, 1) + (s * perSession + at + i) * 1000).toISOString(),
      }))
      await memory.logMessages(`session-${s}`, batch)
    }
  }
  await memory.close()
}

export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const messages = options.quick ? 20_000 : 200_000
  const dir = mkdtempSync(join(tmpdir(), 'hymem-transfer-bench-'))
  try {
    const source = join(dir, 'source')
    const dump = join(dir, 'dump.jsonl')
    await seed(source, messages)
    const idle = child('open', source, dump)
    const exported = child('export', source, dump)
    const imported = child('import', join(dir, 'target'), dump)
    const dumpMb = statSync(dump).size / 1024 / 1024
    const note = `${messages} messages, ${exported.lines} dump lines, ${dumpMb.toFixed(0)} MB`
    return [
      { name: 'export', unit: 'messages/s', value: messages / exported.seconds, notes: note },
      {
        name: 'export peak RSS',
        unit: 'MB',
        value: exported.maxRssMb,
        baseline: idle.maxRssMb,
        ratio: exported.maxRssMb / idle.maxRssMb,
        notes: 'baseline: open and close the store',
      },
      {
        name: 'import',
        unit: 'messages/s',
        value: messages / imported.seconds,
        notes: `${imported.lines} rows`,
      },
      {
        name: 'import peak RSS',
        unit: 'MB',
        value: imported.maxRssMb,
        baseline: idle.maxRssMb,
        ratio: imported.maxRssMb / idle.maxRssMb,
        notes: 'baseline: open and close the store',
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await runWhenMain(import.meta.url, run)
