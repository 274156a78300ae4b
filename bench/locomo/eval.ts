/**
 * Retrieval evaluation on LoCoMo: ingest → dream → augment every question → evidence-turn recall.
 *
 *   pnpm eval:locomo [--data file] [--audit file | --no-audit]
 *                    [--embeddings default|none|local|use-lite|minilm|fake] [--limit-conversations n]
 *                    [--query '{"fusion":"rrf"}'] [--dream '{...}'] [--misses [--misses-k 10]] [--json]
 *                    [--database postgres://…|pglite:memory]
 *
 * Defaults read the development split beside the project (../shared/data/locomo) with its audit file; the
 * data never enters the repository. `--embeddings default` (the default) is the facade's default provider,
 * `local` its default offline model, `use-lite` / `minilm` a named offline model. `--query` / `--dream` take
 * JSON overrides of `QueryConfig` / `DreamConfig` for experiments. `--misses` also prints every question
 * whose evidence is not all among the top k turns, with the turns returned instead. Turn-level recall@k is
 * the share of evidence turns among the first k ranked turns; session-level recall@k the share of evidence
 * sessions among the first k sessions of those turns (in rank order, each once). With --json the last line
 * of output is one JSON object. `--database` runs on PostgreSQL instead of SQLite files: each conversation in a
 * schema of its own on that server (dropped afterwards), or in a fresh in-process PGlite (`pglite:memory`).
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadLocomo } from './dataset'
import {
  askAll,
  chooseEmbeddings,
  formatResult,
  LOCOMO_WORKSPACE,
  peerIdOf,
  prepareConversation,
  resultJson,
  toResult,
} from './harness'
import { findMiss, formatMiss, type Miss, turnTexts } from './misses'
import { parseJsonOption } from './options'
import type { QuestionScore } from './score'
import { countSpeakerFacts, type SpeakerFacts } from './speaker-facts'

const here = dirname(fileURLToPath(import.meta.url))
const sharedLocomo = resolve(here, '../../../shared/data/locomo')

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(sharedLocomo, 'locomo-dev.json') },
    audit: { type: 'string' },
    'no-audit': { type: 'boolean', default: false },
    embeddings: { type: 'string', default: 'default' },
    'limit-conversations': { type: 'string' },
    query: { type: 'string' },
    dream: { type: 'string' },
    misses: { type: 'boolean', default: false },
    'misses-k': { type: 'string', default: '10' },
    json: { type: 'boolean', default: false },
    database: { type: 'string' },
  },
})

const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`)

async function main(): Promise<void> {
  if (!existsSync(values.data)) throw new Error(`no LoCoMo file at ${values.data}: pass --data <file>`)
  const defaultAudit = join(dirname(values.data), 'locomo-dev-audit.json')
  const audit = values['no-audit']
    ? undefined
    : (values.audit ?? (existsSync(defaultAudit) ? defaultAudit : undefined))
  if (audit && !existsSync(audit)) throw new Error(`no audit file at ${audit}`)
  let conversations = loadLocomo(values.data, audit)
  const limit = values['limit-conversations']
  if (limit !== undefined) {
    if (!/^\d+$/.test(limit) || Number(limit) < 1)
      throw new Error(`--limit-conversations must be a positive integer (got ${limit})`)
    conversations = conversations.slice(0, Number(limit))
  }
  const missesK = values['misses-k']
  if (!/^\d+$/.test(missesK) || Number(missesK) < 1)
    throw new Error(`--misses-k must be a positive integer (got ${missesK})`)
  const query = parseJsonOption('query', values.query)
  const dream = parseJsonOption('dream', values.dream)
  const database = values.database
  if (database !== undefined && !/^(postgres(ql)?:\/\/|pglite:)/i.test(database))
    throw new Error(
      `--database must be a postgres:// or postgresql:// URL, or pglite:memory (got ${database})`,
    )
  const embeddings = await chooseEmbeddings(values.embeddings)
  say(
    `LoCoMo: ${conversations.length} conversations, audit ${audit ? 'applied' : 'not applied'}, embeddings ${embeddings.name}` +
      (query ? `, query ${values.query}` : '') +
      (dream ? `, dream ${values.dream}` : '') +
      (database ? `, database ${database.replace(/\/\/([^:@/]*):[^@/]*@/, '//$1:***@')}` : ', SQLite'),
  )

  const scores: QuestionScore[] = []
  const queryMs: number[] = []
  let ingestMs = 0
  let dreamMs = 0
  const speakerFacts: SpeakerFacts[] = []
  for (const conversation of conversations) {
    const prepared = await prepareConversation(conversation, {
      embeddings: embeddings.client,
      ...(query ? { query } : {}),
      ...(dream ? { dream } : {}),
      ...(database ? { database } : {}),
    })
    try {
      ingestMs += prepared.ingestMs
      dreamMs += prepared.dreamMs
      speakerFacts.push(await countSpeakerFacts(prepared.store, LOCOMO_WORKSPACE, conversation, peerIdOf))
      const misses: Miss[] = []
      await askAll(prepared.memory, conversation, prepared.turnOf, scores, queryMs, (question, ranked) => {
        const miss = values.misses ? findMiss(question, ranked, Number(missesK)) : null
        if (miss) misses.push(miss)
      })
      if (misses.length > 0) {
        const texts = turnTexts(conversation)
        say(`\n${conversation.sampleId}: ${misses.length} questions with evidence outside the top ${missesK}`)
        for (const miss of misses) for (const line of formatMiss(miss, texts)) say(line)
        say('')
      }
      say(
        `  ${conversation.sampleId}: ${conversation.questions.length} questions (${conversation.skippedQuestions} without valid evidence skipped)`,
      )
    } finally {
      await prepared.dispose()
    }
  }

  const result = toResult(scores, queryMs, ingestMs, dreamMs, speakerFacts)
  say('')
  for (const line of formatResult(result)) say(line)
  if (values.json) process.stdout.write(`${resultJson(result)}\n`)
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:locomo: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
