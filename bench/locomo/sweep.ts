/**
 * Query-configuration sweep: ingests and dreams each conversation once, then asks every question under each
 * variant (a `QueryConfig` override) and prints one line per variant. Used for the experiment table in
 * `bench/RESULTS.md`.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/locomo/sweep.ts [--embeddings none|local|use-lite|minilm|default]
 *       [--variants '{"name":{...QueryConfig overrides}, ...}' | --variants-file f.json] [--dream '{...}']
 *       [--limit-conversations n]
 *
 * The variant files of the recorded experiments are in bench/locomo/experiments/.
 */
import { readFileSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { QueryConfig } from '@hymem/query'
import { loadLocomo } from './dataset'
import { askAll, chooseEmbeddings, prepareConversation, toResult, withQuery } from './harness'
import type { QuestionScore } from './score'

const here = dirname(fileURLToPath(import.meta.url))
const sharedLocomo = resolve(here, '../../../shared/data/locomo')
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(sharedLocomo, 'locomo-dev.json') },
    audit: { type: 'string', default: join(sharedLocomo, 'locomo-dev-audit.json') },
    embeddings: { type: 'string', default: 'none' },
    variants: { type: 'string' },
    'variants-file': { type: 'string' },
    dream: { type: 'string' },
    'limit-conversations': { type: 'string' },
  },
})

const variants = JSON.parse(
  values['variants-file']
    ? readFileSync(values['variants-file'], 'utf8')
    : (values.variants ?? '{"default":{}}'),
) as Record<string, Partial<QueryConfig>>
const dream = values.dream ? JSON.parse(values.dream) : undefined
let conversations = loadLocomo(values.data, values.audit)
if (values['limit-conversations'])
  conversations = conversations.slice(0, Number(values['limit-conversations']))
const embeddings = await chooseEmbeddings(values.embeddings)
const scores = new Map<string, QuestionScore[]>(Object.keys(variants).map((name) => [name, []]))
const queryMs = new Map<string, number[]>(Object.keys(variants).map((name) => [name, []]))
let ingestMs = 0
let dreamMs = 0
for (const conversation of conversations) {
  const prepared = await prepareConversation(conversation, { embeddings: embeddings.client, dream })
  ingestMs += prepared.ingestMs
  dreamMs += prepared.dreamMs
  try {
    for (const [name, query] of Object.entries(variants)) {
      const memory = await withQuery(prepared, embeddings.client, query)
      await askAll(memory, conversation, prepared.turnOf, scores.get(name) ?? [], queryMs.get(name) ?? [])
      await memory.close()
    }
  } finally {
    await prepared.dispose()
  }
}

process.stdout.write(
  `embeddings ${embeddings.name}, ${conversations.length} conversations, ingest ${Math.round(ingestMs)} ms, dream ${Math.round(dreamMs)} ms\n`,
)
process.stdout.write(
  'variant                          R@5    R@10   R@20   any@5  any@10 any@20  c1@10  c2@10  c3@10  c4@10  c5@10  s@5    s@10   sd@10  p50ms  R@10 per conversation\n',
)
for (const name of Object.keys(variants)) {
  const result = toResult(scores.get(name) ?? [], queryMs.get(name) ?? [], ingestMs, dreamMs)
  const r = result.recall['1-4'] ?? {}
  const a = result.anyHit['1-4'] ?? {}
  const cells = [r['5'], r['10'], r['20'], a['5'], a['10'], a['20']]
  for (const c of ['1', '2', '3', '4', '5']) cells.push(result.recall[c]?.['10'])
  cells.push(result.sessionRecall['1-4']?.['5'], result.sessionRecall['1-4']?.['10'], result.recall10StdDev)
  process.stdout.write(
    `${name.padEnd(32)} ${cells.map((v) => (v ?? 0).toFixed(3)).join('  ')}  ${result.queryMsP50}  ${result.conversations.map((c) => c.recall.toFixed(3)).join(' ')}\n`,
  )
}
