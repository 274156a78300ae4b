/**
 * Retrieval evaluation on LoCoMo: ingest → dream → augment every question → evidence-turn recall.
 *
 *   pnpm eval:locomo [--data file] [--audit file] [--embeddings none|local|fake] [--limit-conversations n] [--json]
 *
 * Defaults read the development split beside the project (../shared/data/locomo); the data never enters
 * the repository. With --json the last line of output is one JSON object.
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { dirname, join, resolve } from 'node:path'
import { fileURLToPath } from 'node:url'
import { parseArgs } from 'node:util'
import { createFakeEmbeddings, type EmbeddingClient } from '@hymem/extraction'
import { createHyMem, type HyMem } from 'hymem'
import { type LocomoConversation, loadLocomo } from './dataset'
import { type QuestionScore, rankTurns, scoreQuestion, summarise } from './score'

const here = dirname(fileURLToPath(import.meta.url))
const sharedLocomo = resolve(here, '../../../shared/data/locomo')

const { values } = parseArgs({
  options: {
    data: { type: 'string', default: join(sharedLocomo, 'locomo-dev.json') },
    audit: { type: 'string' },
    'no-audit': { type: 'boolean', default: false },
    embeddings: { type: 'string', default: 'none' },
    'limit-conversations': { type: 'string' },
    json: { type: 'boolean', default: false },
  },
})

const say = (line: string) => (values.json ? process.stderr : process.stdout).write(`${line}\n`)

async function main(): Promise<void> {
  const defaultAudit = join(dirname(values.data), 'locomo-dev-audit.json')
  const audit = values['no-audit']
    ? undefined
    : (values.audit ?? (existsSync(defaultAudit) ? defaultAudit : undefined))
  if (!existsSync(values.data)) {
    throw new Error(`no LoCoMo file at ${values.data}: pass --data <file>`)
  }
  let conversations = loadLocomo(values.data, audit)
  if (values['limit-conversations'])
    conversations = conversations.slice(0, Number(values['limit-conversations']))
  const embeddings = await chooseEmbeddings(values.embeddings)
  say(
    `LoCoMo: ${conversations.length} conversations, audit ${audit ? 'applied' : 'not applied'}, embeddings ${values.embeddings}`,
  )

  const scores: QuestionScore[] = []
  const queryMs: number[] = []
  let ingestMs = 0
  let dreamMs = 0
  for (const conversation of conversations) {
    const root = mkdtempSync(join(tmpdir(), 'hymem-locomo-'))
    const lastTurn = conversation.sessions.at(-1)?.turns.at(-1)?.createdAt ?? new Date().toISOString()
    const now = new Date(Date.parse(lastTurn) + 86_400_000)
    const memory = await createHyMem({ root, llm: null, embeddings, clock: () => now, workspaceId: 'locomo' })
    try {
      const turnOf = new Map<number, string>()
      let started = performance.now()
      await ingest(memory, conversation, turnOf)
      ingestMs += performance.now() - started
      started = performance.now()
      await dreamAll(memory)
      dreamMs += performance.now() - started
      for (const question of conversation.questions) {
        const t0 = performance.now()
        const context = await memory.augment(question.question)
        queryMs.push(performance.now() - t0)
        const ranked = rankTurns(context.ranked, (id) => turnOf.get(id))
        scores.push(scoreQuestion(question.category, question.evidence, ranked))
      }
      say(
        `  ${conversation.sampleId}: ${conversation.questions.length} questions (${conversation.skippedQuestions} without valid evidence skipped)`,
      )
    } finally {
      await memory.close()
      rmSync(root, { recursive: true, force: true })
    }
  }

  const result = {
    questions: scores.length,
    recall: summarise(scores, 'recall'),
    anyHit: summarise(scores, 'anyHit'),
    ingestMs: Math.round(ingestMs),
    dreamMs: Math.round(dreamMs),
    queryMsP50: percentile(queryMs, 0.5),
    queryMsP95: percentile(queryMs, 0.95),
  }
  say('')
  say('category   recall@5  recall@10  recall@20   any@5  any@10  any@20')
  for (const key of Object.keys(result.recall)) {
    const r = result.recall[key] ?? {}
    const a = result.anyHit[key] ?? {}
    say(
      `${key.padEnd(9)}  ${fmt(r['5'])}     ${fmt(r['10'])}      ${fmt(r['20'])}      ${fmt(a['5'])}   ${fmt(a['10'])}   ${fmt(a['20'])}`,
    )
  }
  say(
    `ingest ${result.ingestMs} ms, dream ${result.dreamMs} ms, query p50 ${result.queryMsP50} ms / p95 ${result.queryMsP95} ms`,
  )
  if (values.json) process.stdout.write(`${JSON.stringify(result)}\n`)
}

async function ingest(
  memory: HyMem,
  conversation: LocomoConversation,
  turnOf: Map<number, string>,
): Promise<void> {
  for (const session of conversation.sessions) {
    const messages = await memory.logMessages(
      `session_${session.index}`,
      session.turns.map((turn) => ({
        peerId: peerIdOf(turn.speaker),
        role: 'user' as const,
        content: turn.text,
        metadata: { dia_id: turn.diaId },
        createdAt: turn.createdAt,
      })),
    )
    messages.forEach((message, i) => {
      const turn = session.turns[i]
      if (turn) turnOf.set(message.id, turn.diaId)
    })
  }
}

async function dreamAll(memory: HyMem): Promise<void> {
  for (let round = 0; round < 1000; round++) {
    const report = await memory.dream({ budget: 500 })
    if (report.status !== 'ok') throw new Error(`dream ${report.status}: ${JSON.stringify(report)}`)
    const backlog = await memory.dreamBacklog()
    if (backlog.pendingChunks === 0 && backlog.pendingMessages === 0) return
  }
  throw new Error('dreaming did not converge after 1000 rounds')
}

async function chooseEmbeddings(kind: string): Promise<EmbeddingClient | null> {
  if (kind === 'none') return null
  if (kind === 'fake') return createFakeEmbeddings({ dimensions: 256 })
  if (kind === 'local') {
    const { createLocalEmbeddings } = await import('@hymem/extraction/local')
    return createLocalEmbeddings()
  }
  throw new Error(`--embeddings must be none, local or fake (got ${kind})`)
}

function peerIdOf(speaker: string): string {
  return speaker.toLowerCase().replace(/[^a-z0-9_-]+/g, '_') || 'speaker'
}

function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 100) / 100
}

function fmt(value: number | undefined): string {
  return value === undefined ? '  -  ' : value.toFixed(3)
}

main().catch((error: unknown) => {
  process.stderr.write(`eval:locomo: ${error instanceof Error ? error.message : String(error)}\n`)
  process.exit(1)
})
