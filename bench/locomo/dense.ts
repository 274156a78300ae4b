/**
 * Dense retrieval alone: embeds every turn and every question of each conversation with one embedder and
 * ranks turns by cosine, scored like `eval.ts` (turn- and session-level recall, per category and per
 * conversation). It measures what an embedder can find on its own, before any fusion with keywords. With
 * --json the last line is the result object of `eval.ts` (its `dreamMs` holds the embedding and ranking time).
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/locomo/dense.ts [--embeddings use-lite|minilm]
 *       [--data file] [--audit file] [--limit-conversations n] [--json]
 */
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import type { EmbeddingClient } from '@hymem/extraction'
import { createDenseIndex } from './baselines'
import { type LocomoConversation, loadLocomo } from './dataset'
import { chooseEmbeddings, formatResult, resultJson, toResult } from './harness'
import { type QuestionScore, scoreQuestion } from './score'

const here = dirname(fileURLToPath(import.meta.url))
const sharedLocomo = resolve(here, '../../../shared/data/locomo')
const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(sharedLocomo, 'locomo-dev.json') },
    audit: { type: 'string' },
    embeddings: { type: 'string', default: 'minilm' },
    'limit-conversations': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
})

async function scoreConversation(
  conversation: LocomoConversation,
  client: EmbeddingClient,
  scores: QuestionScore[],
  queryMs: number[],
): Promise<void> {
  const turns = conversation.sessions.flatMap((session) => session.turns)
  const index = await createDenseIndex(
    client,
    turns.map((turn) => ({ id: turn.diaId, text: `${turn.speaker}: ${turn.text}` })),
  )
  for (const question of conversation.questions) {
    const started = performance.now()
    const ranked = await index.rank(question.question)
    queryMs.push(performance.now() - started)
    scores.push(scoreQuestion(question.category, question.evidence, ranked, conversation.sampleId))
  }
}

async function main(): Promise<void> {
  const audit = values.audit ?? join(dirname(values.data), 'locomo-dev-audit.json')
  let conversations = loadLocomo(values.data, audit)
  if (values['limit-conversations'])
    conversations = conversations.slice(0, Number(values['limit-conversations']))
  const embeddings = await chooseEmbeddings(values.embeddings)
  if (!embeddings.client) throw new Error('dense retrieval needs an embedder: --embeddings use-lite|minilm')
  const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`)
  say(`LoCoMo dense retrieval alone: ${conversations.length} conversations, embeddings ${embeddings.name}`)
  const scores: QuestionScore[] = []
  const queryMs: number[] = []
  const started = performance.now()
  for (const conversation of conversations)
    await scoreConversation(conversation, embeddings.client, scores, queryMs)
  const elapsed = Math.round(performance.now() - started)
  const result = toResult(scores, queryMs, 0, elapsed)
  // The last line of formatResult names ingest and dream times, which this script does not have.
  for (const line of formatResult(result).slice(0, -1)) say(line)
  say(
    `embedding and ranking ${elapsed} ms; per question p50 ${result.queryMsP50} ms / p95 ${result.queryMsP95} ms`,
  )
  if (values.json) process.stdout.write(`${resultJson(result)}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`dense: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
