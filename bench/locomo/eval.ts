/**
 * Retrieval evaluation on LoCoMo: ingest → dream → augment every question → evidence-turn recall.
 *
 *   pnpm eval:locomo [--data file] [--audit file | --no-audit] [--embeddings default|none|local|fake]
 *                    [--limit-conversations n] [--query '{"fusion":"rrf"}'] [--dream '{...}'] [--json]
 *
 * Defaults read the development split beside the project (../shared/data/locomo) with its audit file; the
 * data never enters the repository. `--embeddings default` (the default) is the facade's default provider.
 * `--query` / `--dream` take JSON overrides of `QueryConfig` / `DreamConfig` for experiments. With --json the
 * last line of output is one JSON object.
 */
import { existsSync } from 'node:fs'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { loadLocomo } from './dataset'
import { askAll, chooseEmbeddings, formatResult, prepareConversation, resultJson, toResult } from './harness'
import type { QuestionScore } from './score'

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
    json: { type: 'boolean', default: false },
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
  const query = parseJsonOption('query', values.query)
  const dream = parseJsonOption('dream', values.dream)
  const embeddings = await chooseEmbeddings(values.embeddings)
  say(
    `LoCoMo: ${conversations.length} conversations, audit ${audit ? 'applied' : 'not applied'}, embeddings ${embeddings.name}` +
      (query ? `, query ${values.query}` : '') +
      (dream ? `, dream ${values.dream}` : ''),
  )

  const scores: QuestionScore[] = []
  const queryMs: number[] = []
  let ingestMs = 0
  let dreamMs = 0
  for (const conversation of conversations) {
    const prepared = await prepareConversation(conversation, {
      embeddings: embeddings.client,
      ...(query ? { query } : {}),
      ...(dream ? { dream } : {}),
    })
    try {
      ingestMs += prepared.ingestMs
      dreamMs += prepared.dreamMs
      await askAll(prepared.memory, conversation, prepared.turnOf, scores, queryMs)
      say(
        `  ${conversation.sampleId}: ${conversation.questions.length} questions (${conversation.skippedQuestions} without valid evidence skipped)`,
      )
    } finally {
      await prepared.dispose()
    }
  }

  const result = toResult(scores, queryMs, ingestMs, dreamMs)
  say('')
  for (const line of formatResult(result)) say(line)
  if (values.json) process.stdout.write(`${resultJson(result)}\n`)
}

function parseJsonOption(name: string, text: string | undefined): Record<string, unknown> | undefined {
  if (text === undefined) return undefined
  try {
    const value: unknown = JSON.parse(text)
    if (value && typeof value === 'object' && !Array.isArray(value)) return value as Record<string, unknown>
  } catch {}
  throw new Error(`--${name} must be a JSON object (got ${text})`)
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:locomo: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
