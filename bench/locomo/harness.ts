/**
 * The evaluation steps shared by `eval.ts` (one configuration) and `sweep.ts` (many query configurations
 * over one ingested + dreamed store per conversation).
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import type { Store } from '@hymem/core-store'
import type { DreamConfig } from '@hymem/dreaming'
import { createFakeEmbeddings, type EmbeddingClient } from '@hymem/extraction'
import {
  createLocalEmbeddings,
  DEFAULT_LOCAL_EMBEDDING_MODEL,
  LOCAL_EMBEDDING_MODELS,
} from '@hymem/extraction/local'
import type { QueryConfig } from '@hymem/query'
import { type AugmentedContext, configFromEnv, createHyMem, type HyMem, openHyMemStore } from 'hymem'
import pg from 'pg'
import type { EvalQuestion, LocomoConversation } from './dataset'
import { clearKeptStore, keptStoreKey, markKeptStore, readKeptStore } from './kept-stores'
import {
  type ConversationRecall,
  perConversation,
  type QuestionScore,
  rankTurns,
  scoreQuestion,
  standardDeviation,
  summarise,
  type Table,
} from './score'
import { formatSpeakerFacts, type SpeakerFacts } from './speaker-facts'

/** The workspace every conversation is ingested into (one fresh root each). */
export const LOCOMO_WORKSPACE = 'locomo'

/** A conversation ingested and dreamed into a fresh store under a temp root. */
export interface PreparedConversation {
  readonly memory: HyMem
  /** The store under `memory`, opened apart: the other query settings share it, the counts read it. */
  readonly store: Store
  /** `messages.id` → LoCoMo `dia_id`. */
  readonly turnOf: ReadonlyMap<number, string>
  readonly ingestMs: number
  readonly dreamMs: number
  /** Closes the store and deletes the temp root. */
  dispose(): Promise<void>
}

export interface PrepareOptions {
  readonly embeddings: EmbeddingClient | null
  readonly query?: Partial<QueryConfig>
  readonly dream?: Partial<DreamConfig>
  /**
   * A PostgreSQL URL (`postgres://…`, or `pglite:memory`) instead of the SQLite file: each conversation gets a
   * schema of its own there (a fresh PGlite for `pglite:memory`), dropped on `dispose()`.
   */
  readonly database?: string
  /**
   * A folder where this conversation's dreamed SQLite store is kept: reused when it was dreamed from the same
   * turns, embedder and dream settings, else dreamed there again (`kept-stores.ts`).
   */
  readonly keepIn?: string
}

let schemas = 0

/** Where one conversation's memory lives on `database`, and how to remove it afterwards. */
function conversationDatabase(database: string): { url: string; drop: () => Promise<void> } {
  if (database.startsWith('pglite:')) return { url: database, drop: async () => undefined }
  schemas += 1
  const schema = `locomo_${process.pid}_${Date.now().toString(36)}_${schemas}`
  return {
    url: `${database}${database.includes('?') ? '&' : '?'}schema=${schema}`,
    drop: async () => {
      const admin = new pg.Client({ connectionString: database })
      await admin.connect()
      try {
        await admin.query(`DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      } finally {
        await admin.end()
      }
    },
  }
}

/**
 * Fresh root; one session per LoCoMo session, one peer per speaker, one message per turn (its `dia_id` in
 * metadata, the caption already appended by the loader); then dreams until the backlog is empty.
 */
export async function prepareConversation(
  conversation: Pick<LocomoConversation, 'sessions'>,
  options: PrepareOptions,
): Promise<PreparedConversation> {
  if (options.keepIn && options.database)
    throw new Error('kept stores are SQLite files: drop the database option')
  const keep = options.keepIn
    ? {
        folder: options.keepIn,
        key: keptStoreKey({
          sessions: conversation.sessions,
          embedder: options.embeddings ? [options.embeddings.name, options.embeddings.model] : null,
          dream: options.dream ?? null,
        }),
      }
    : null
  const kept = keep ? readKeptStore(keep.folder, keep.key) : null
  if (keep && !kept) clearKeptStore(keep.folder)
  const root = keep?.folder ?? mkdtempSync(join(tmpdir(), 'hymem-locomo-'))
  const database = options.database ? conversationDatabase(options.database) : null
  const lastTurn = conversation.sessions.at(-1)?.turns.at(-1)?.createdAt ?? new Date().toISOString()
  const now = new Date(Date.parse(lastTurn) + 86_400_000)
  const clock = () => now
  const store = await openHyMemStore({ root, clock, ...(database ? { database: database.url } : {}) })
  const memory = await createHyMem({
    root,
    store,
    llm: null,
    embeddings: options.embeddings,
    clock,
    workspaceId: LOCOMO_WORKSPACE,
    searchLog: false,
    ...(options.query ? { query: options.query } : {}),
    ...(options.dream ? { dream: options.dream } : {}),
  })
  const dispose = async () => {
    await memory.close()
    await store.close()
    await database?.drop()
    if (!keep) rmSync(root, { recursive: true, force: true })
  }
  if (kept) return { memory, store, turnOf: kept, ingestMs: 0, dreamMs: 0, dispose }
  try {
    const turnOf = new Map<number, string>()
    let started = performance.now()
    await ingest(memory, conversation, turnOf)
    const ingestMs = performance.now() - started
    started = performance.now()
    await dreamAll(memory)
    const dreamMs = performance.now() - started
    if (keep) markKeptStore(keep.folder, keep.key, turnOf)
    return { memory, store, turnOf, ingestMs, dreamMs, dispose }
  } catch (error) {
    await dispose()
    throw error
  }
}

/**
 * A second facade over a prepared conversation's store with other query settings (no re-ingesting or
 * dreaming); close it before disposing of the conversation.
 */
export function withQuery(
  prepared: PreparedConversation,
  embeddings: EmbeddingClient | null,
  query: Partial<QueryConfig>,
): Promise<HyMem> {
  return createHyMem({
    store: prepared.store,
    root: prepared.memory.root,
    workspaceId: LOCOMO_WORKSPACE,
    llm: null,
    embeddings,
    searchLog: false,
    query,
  })
}

/**
 * Asks every question of the conversation through `augment()` and scores the ranked turns; `onRanked`
 * sees each question's ranked turns (for the misses report).
 */
export async function askAll<Q extends EvalQuestion>(
  memory: HyMem,
  conversation: { readonly sampleId: string; readonly questions: readonly Q[] },
  turnOf: ReadonlyMap<number, string>,
  scores: QuestionScore[],
  queryMs: number[],
  onRanked?: (question: Q, rankedTurns: readonly string[], context: AugmentedContext) => void,
): Promise<void> {
  for (const question of conversation.questions) {
    const started = performance.now()
    const context = await memory.augment(question.question)
    queryMs.push(performance.now() - started)
    const ranked = rankTurns(context.ranked, (id) => turnOf.get(id))
    scores.push(scoreQuestion(question.category, question.evidence, ranked, conversation.sampleId))
    onRanked?.(question, ranked, context)
  }
}

async function ingest(
  memory: HyMem,
  conversation: Pick<LocomoConversation, 'sessions'>,
  turnOf: Map<number, string>,
): Promise<void> {
  for (const session of conversation.sessions) {
    const messages = await memory.logMessages(
      `session_${session.index}`,
      session.turns.map((turn) => ({
        peerId: peerIdOf(turn.speaker),
        role: turn.role ?? 'user',
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
    const backlog = await memory.queue.backlog()
    if (backlog.pendingChunks === 0 && backlog.pendingMessages === 0) return
  }
  throw new Error('dreaming did not converge after 1000 rounds')
}

/** The values of `--embeddings`. */
export const EMBEDDING_CHOICES = ['default', 'none', 'local', ...LOCAL_EMBEDDING_MODELS, 'fake'] as const

/**
 * `default` is what `configFromEnv` picks with no variables set (what users get without flags); `local` is
 * the default offline model; `use-lite`, `minilm` and `minilm-int8` name an offline model.
 */
export async function chooseEmbeddings(
  kind: string,
): Promise<{ name: string; client: EmbeddingClient | null }> {
  const defaults = configFromEnv({}).config.embedding
  let resolved = kind === 'default' ? defaults.provider : kind
  if (resolved === 'local') resolved = defaults.localModel ?? DEFAULT_LOCAL_EMBEDDING_MODEL
  if (resolved === 'none') return { name: resolved, client: null }
  if (resolved === 'fake') return { name: resolved, client: createFakeEmbeddings({ dimensions: 256 }) }
  const model = LOCAL_EMBEDDING_MODELS.find((m) => m === resolved)
  if (model) return { name: `local ${model}`, client: createLocalEmbeddings({ model }) }
  throw new Error(`--embeddings must be one of ${EMBEDDING_CHOICES.join(', ')} (got ${kind})`)
}

/** Peer id of a speaker name (the facade's id rules: lower case, no spaces). */
export function peerIdOf(speaker: string): string {
  return speaker.toLowerCase().replace(/[^a-z0-9_-]+/g, '_') || 'speaker'
}

/** The issue's result object. */
export interface EvalResult {
  readonly questions: number
  readonly recall: Table
  readonly anyHit: Table
  readonly sessionRecall: Table
  /** Recall@10 of categories 1-4 per conversation. */
  readonly conversations: readonly ConversationRecall[]
  /** Sample standard deviation of the conversations' turn-level recall@10. */
  readonly recall10StdDev: number
  readonly ingestMs: number
  readonly dreamMs: number
  readonly queryMsP50: number
  readonly queryMsP95: number
  /** Facts per speaker of each conversation (the two speakers are two peers). */
  readonly speakerFacts: readonly SpeakerFacts[]
}

export function toResult(
  scores: readonly QuestionScore[],
  queryMs: readonly number[],
  ingestMs: number,
  dreamMs: number,
  speakerFacts: readonly SpeakerFacts[] = [],
): EvalResult {
  const conversations = perConversation(scores)
  return {
    questions: scores.length,
    recall: summarise(scores, 'recall'),
    anyHit: summarise(scores, 'anyHit'),
    sessionRecall: summarise(scores, 'sessionRecall'),
    conversations,
    recall10StdDev: standardDeviation(conversations.map((c) => c.recall)),
    ingestMs: Math.round(ingestMs),
    dreamMs: Math.round(dreamMs),
    queryMsP50: percentile(queryMs, 0.5),
    queryMsP95: percentile(queryMs, 0.95),
    speakerFacts,
  }
}

/**
 * JSON of a result with the tables' keys in the issue's order (`"1-4"` first): `JSON.stringify` would put
 * the integer-like category keys before it.
 */
export function resultJson(result: EvalResult): string {
  const table = (t: Table) =>
    `{${Object.keys(t)
      .sort((a, b) => (a === '1-4' ? -1 : b === '1-4' ? 1 : Number(a) - Number(b)))
      .map((key) => `${JSON.stringify(key)}:${JSON.stringify(t[key])}`)
      .join(',')}}`
  return (
    `{"questions":${result.questions},"recall":${table(result.recall)},"anyHit":${table(result.anyHit)},` +
    `"sessionRecall":${table(result.sessionRecall)},"conversations":${JSON.stringify(result.conversations)},` +
    `"recall10StdDev":${result.recall10StdDev},"ingestMs":${result.ingestMs},"dreamMs":${result.dreamMs},` +
    `"queryMsP50":${result.queryMsP50},"queryMsP95":${result.queryMsP95},` +
    `"speakerFacts":${JSON.stringify(result.speakerFacts)}}`
  )
}

/**
 * The per-category table printed by the CLIs (turn-level recall and any-hit, then session-level recall),
 * then recall@10 per conversation with its standard deviation.
 */
export function formatResult(result: EvalResult): string[] {
  const lines = [
    'category   recall@5  recall@10  recall@20   any@5  any@10  any@20   session@5  session@10  session@20',
  ]
  for (const key of ['1-4', '1', '2', '3', '4', '5']) {
    const r = result.recall[key]
    const a = result.anyHit[key]
    const s = result.sessionRecall[key]
    if (!r || !a || !s) continue
    lines.push(
      `${key.padEnd(9)}  ${fmt(r['5'])}     ${fmt(r['10'])}      ${fmt(r['20'])}      ${fmt(a['5'])}   ${fmt(a['10'])}   ${fmt(a['20'])}    ${fmt(s['5'])}      ${fmt(s['10'])}       ${fmt(s['20'])}`,
    )
  }
  if (result.conversations.length > 0) {
    const each = result.conversations.map((c) => `${c.conversation} ${fmt(c.recall)}`).join(', ')
    lines.push(`recall@10 (1-4) per conversation: ${each}; std dev ${fmt(result.recall10StdDev)}`)
  }
  lines.push(...formatSpeakerFacts(result.speakerFacts))
  lines.push(
    `ingest ${result.ingestMs} ms, dream ${result.dreamMs} ms, query p50 ${result.queryMsP50} ms / p95 ${result.queryMsP95} ms`,
  )
  return lines
}

/** The p-quantile of `values` (nearest rank), rounded to 0.01; 0 for none. */
export function percentile(values: readonly number[], p: number): number {
  if (values.length === 0) return 0
  const sorted = [...values].sort((a, b) => a - b)
  return Math.round((sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))] ?? 0) * 100) / 100
}

function fmt(value: number | undefined): string {
  return value === undefined ? '  -  ' : value.toFixed(3)
}
