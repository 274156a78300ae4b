/**
 * Dreaming throughput.
 *
 * 1. Pipeline cost: chunks/s of a full cycle with a zero-latency fake LLM (the LLM extractor's parsing, all
 *    the SQLite work, Markdown), against the raw SQLite cost of writing the same chunks, edges and evidence
 *    with prepared statements in one transaction per chunk.
 * 2. Concurrency: wall time of the extraction phase over 200 chunks with 200 ms of fake model latency and
 *    concurrency 4, against the ideal chunks / concurrency × latency.
 * 3. With the shipped embedder: chunks/s and messages/s of a full cycle (rules extractor, no LLM) over a
 *    two-person chat, with the facade's default offline embedder (loaded before the clock starts), with it
 *    but no message vectors (`messageEmbedBudget` 0), and with embeddings off (the baseline); and messages/s
 *    of the shipped embedder (MiniLM on ONNX Runtime) against the path before issue 28 (USE-lite on the
 *    dream's thread, batches of 8), in this run.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/dreaming.bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { openStore, type Store } from '@hymem/core-store'
import { registerFullTextFunctions } from '@hymem/core-store/sqlite'
import { type DreamConfig, dream } from '@hymem/dreaming'
import {
  cachedEmbeddings,
  createFakeLLM,
  createLLMExtractor,
  createRulesExtractor,
  type EmbeddingClient,
} from '@hymem/extraction'
import { createLocalEmbeddings, createUseLiteEmbeddings } from '@hymem/extraction/local'
import Database from 'better-sqlite3'
import { chatTurns } from './chat-corpus'
import { runWhenMain } from './results-table'
import type { BenchOptions, BenchResult } from './types'

const WS = 'bench'
/** The default embedding path before issue 28: USE-lite on the dream's own thread, batches of 8. */
const PREVIOUS_PATH = { threads: 0, batchSize: 8 } as const
const TOOLS = ['redis', 'postgres', 'kafka', 'nginx', 'docker', 'terraform', 'grafana', 'vault']
const FACT = /The (\w+) depends on (\w+) and uses (\w+)\./

/** A model that answers each facts prompt with the two triples its chunk states (and empty elsewhere). */
function fakeModel(latencyMs: number) {
  return createFakeLLM({
    model: 'bench-model',
    respond: async (req) => {
      if (latencyMs > 0) await new Promise((r) => setTimeout(r, latencyMs))
      if (!req.system.includes('durable technical facts')) return '{}'
      const m = FACT.exec(req.user)
      const triples = m
        ? [
            { subject: m[1], predicate: 'depends_on', object: m[2], polarity: 1, evidence: m[0] },
            { subject: m[1], predicate: 'uses', object: m[3], polarity: 1, evidence: m[0] },
          ]
        : []
      return JSON.stringify({ triples, markers: [], entity_types: [] })
    },
  })
}

function turns(chunks: number) {
  const out: { peerId: string; role: 'user'; content: string; createdAt: string }[] = []
  const t0 = Date.parse('2026-02-01T00:00:00.000Z')
  for (let i = 0; i < chunks; i++) {
    const at = (k: number) => new Date(t0 + (2 * i + k) * 60_000).toISOString()
    const content = `The svc${i} depends on ${TOOLS[i % TOOLS.length]} and uses ${TOOLS[(i * 3 + 1) % TOOLS.length]}.`
    out.push({ peerId: 'alice', role: 'user', content, createdAt: at(0) })
    out.push({ peerId: 'alice', role: 'user', content: 'ok', createdAt: at(1) })
  }
  return out
}

async function seeded(chunks: number): Promise<{ store: Store; dir: string }> {
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-'))
  const store = openStore({
    path: join(dir, 'hymem.sqlite'),
    clock: () => new Date('2026-03-01T00:00:00.000Z'),
  })
  await store.messages.insertBatch(WS, 's1', turns(chunks))
  return { store, dir }
}

async function cycle(chunks: number, latencyMs: number, concurrency: number) {
  const { store, dir } = await seeded(chunks)
  try {
    const started = performance.now()
    const report = await dream({
      store,
      workspaceId: WS,
      extractor: createLLMExtractor({ llm: fakeModel(latencyMs) }),
      markdown: { userMdPath: join(dir, 'USER.md'), memoryMdPath: join(dir, 'MEMORY.md') },
      budget: chunks,
      concurrency,
    })
    if (report.status !== 'ok' || report.chunksProcessed !== chunks) {
      throw new Error(`bench dream did not finish: ${report.status} ${report.errors.join('; ')}`)
    }
    return { wallMs: performance.now() - started, extractMs: report.timings.extract ?? 0 }
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The raw floor: the same rows written with prepared statements, one transaction per chunk. */
async function rawWrites(chunks: number): Promise<number> {
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-raw-'))
  const store = openStore({ path: join(dir, 'hymem.sqlite') })
  await store.close()
  const db = new Database(join(dir, 'hymem.sqlite'))
  registerFullTextFunctions(db)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  try {
    db.prepare("INSERT INTO workspaces (id, created_at) VALUES (?, '2026')").run(WS)
    db.prepare(
      "INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES (?, 's1', '2026', '2026')",
    ).run(WS)
    const chunk = db.prepare(
      "INSERT INTO chunks (workspace_id, session_id, text, salience_reason, message_ids, first_message_id, last_message_id, occurred_at, created_at) VALUES (?, 's1', ?, 'technology', ?, ?, ?, '2026', '2026')",
    )
    const edge = db.prepare(
      "INSERT INTO knowledge_graph (workspace_id, subject, predicate, object, pos_evidence, confidence, first_seen, last_seen, last_reinforced, valid_from) VALUES (?, ?, ?, ?, 1, 0.667, '2026', '2026', '2026', '2026') ON CONFLICT DO UPDATE SET pos_evidence = pos_evidence + 1 RETURNING id",
    )
    const evidence = db.prepare(
      "INSERT INTO kg_evidence (workspace_id, edge_id, chunk_id, message_ids, polarity, observed_at, created_at) VALUES (?, ?, ?, ?, 1, '2026', '2026')",
    )
    const processed = db.prepare(
      "INSERT INTO processed_chunks (chunk_id, prompt_version, extractor, processed_at) VALUES (?, 'v', 'raw', '2026')",
    )
    const one = db.transaction((i: number) => {
      const ids = JSON.stringify([2 * i + 1])
      const c = chunk.run(WS, `The svc${i} depends on x.`, ids, 2 * i + 1, 2 * i + 1).lastInsertRowid
      for (const [p, o] of [
        ['depends_on', TOOLS[i % TOOLS.length]],
        ['uses', TOOLS[(i * 3 + 1) % TOOLS.length]],
      ] as const) {
        const e = edge.get(WS, `svc${i}`, p, o) as { id: number }
        evidence.run(WS, e.id, c, ids)
      }
      processed.run(c)
    })
    const started = performance.now()
    for (let i = 0; i < chunks; i++) one(i)
    return chunks / ((performance.now() - started) / 1000)
  } finally {
    db.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

interface ChatCycle {
  readonly wallMs: number
  readonly embedMs: number
  readonly chunks: number
  readonly counts: Readonly<Record<string, number>>
}

/** One full rules-extractor cycle over `messages` chat turns in a fresh store. */
async function chatCycle(
  messages: number,
  embeddings: EmbeddingClient | undefined,
  config: Partial<DreamConfig> = {},
): Promise<ChatCycle> {
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-chat-'))
  const store = openStore({
    path: join(dir, 'hymem.sqlite'),
    clock: () => new Date('2026-03-01T00:00:00.000Z'),
  })
  try {
    await store.messages.insertBatch(WS, 'chat', chatTurns(messages))
    const started = performance.now()
    const report = await dream({
      store,
      workspaceId: WS,
      extractor: createRulesExtractor(),
      markdown: { userMdPath: join(dir, 'USER.md'), memoryMdPath: join(dir, 'MEMORY.md') },
      budget: messages,
      config,
      ...(embeddings ? { embeddings } : {}),
    })
    if (report.status !== 'ok' || report.errors.length > 0) {
      throw new Error(`bench dream did not finish: ${report.status} ${report.errors.join('; ')}`)
    }
    return {
      wallMs: performance.now() - started,
      embedMs: report.timings.embed ?? 0,
      chunks: report.chunksProcessed,
      counts: report.counts,
    }
  } finally {
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

/** Messages per second of a chat cycle. */
function messageRate(messages: number, cycle: ChatCycle): number {
  return messages / (cycle.wallMs / 1000)
}

/** Loads an offline model (the clock does not count it) and returns a fresh-cache factory over it. */
async function loaded(client: EmbeddingClient): Promise<{ fresh: () => EmbeddingClient; loadMs: number }> {
  const started = performance.now()
  await client.embed(['warm up'])
  // A fresh cache per cycle (as a new process would have), over the one loaded model.
  return { fresh: () => cachedEmbeddings(client), loadMs: performance.now() - started }
}

/**
 * Chunks/s of a chat dream with the shipped embedder, without message vectors, with embeddings off, and
 * messages/s of the shipped embedder against the previous path (the baseline), all in this run.
 */
async function embedderCycles(messages: number): Promise<BenchResult[]> {
  const local = createLocalEmbeddings()
  const shipped = await loaded(local)
  const previous = await loaded(createUseLiteEmbeddings(PREVIOUS_PATH))
  const off = await chatCycle(messages, undefined)
  const before = await chatCycle(messages, previous.fresh())
  const variants = [
    { label: `embedder ${local.name}`, cycle: await chatCycle(messages, shipped.fresh()) },
    {
      label: `${local.name}, messageEmbedBudget 0`,
      cycle: await chatCycle(messages, shipped.fresh(), { messageEmbedBudget: 0 }),
    },
  ]
  const rate = (n: number, ms: number) => n / (ms / 1000)
  const offRate = rate(off.chunks, off.wallMs)
  const notes = (c: ChatCycle) => {
    const vectors = ['messages', 'chunks', 'episodes', 'edges']
      .map((index) => `${index} ${c.counts[`embedded_${index}`] ?? 0}`)
      .join(', ')
    return `${messageRate(messages, c).toFixed(1)} messages/s; ${c.chunks} chunks; embed ${Math.round(c.embedMs)} ms (${vectors})`
  }
  const shippedCycle = variants[0]!.cycle
  return [
    ...variants.map(({ label, cycle }) => ({
      name: `chat cycle, ${messages} msgs, ${label}`,
      unit: 'chunks/s',
      value: rate(cycle.chunks, cycle.wallMs),
      baseline: offRate,
      ratio: offRate / rate(cycle.chunks, cycle.wallMs),
      notes: `${notes(cycle)}; baseline: embeddings off; ratio = cost multiple; model load ${Math.round(shipped.loadMs)} ms not counted`,
    })),
    {
      name: `chat cycle, ${messages} msgs, embeddings off`,
      unit: 'chunks/s',
      value: offRate,
      notes: notes(off),
    },
    {
      name: `chat cycle, ${messages} msgs, ${local.name} against the default before issue 28`,
      unit: 'messages/s',
      value: messageRate(messages, shippedCycle),
      baseline: messageRate(messages, before),
      ratio: messageRate(messages, shippedCycle) / messageRate(messages, before),
      notes: `${notes(shippedCycle)}; baseline: USE-lite on the dream's thread in batches of 8 (before issue 28) in this run, ${notes(before)}; ratio = speed-up; model load ${Math.round(previous.loadMs)} ms not counted`,
    },
  ]
}

export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const fast = options.quick ? 100 : 400
  const slow = options.quick ? 40 : 200
  const latency = 200
  const concurrency = 4
  const zero = await cycle(fast, 0, concurrency)
  const chunksPerSecond = fast / (zero.wallMs / 1000)
  const raw = await rawWrites(fast)
  const timed = await cycle(slow, latency, concurrency)
  const ideal = (slow / concurrency) * latency
  const withEmbedder = await embedderCycles(options.quick ? 100 : 400)
  return [
    {
      name: `full cycle, ${fast} chunks, 0 ms model`,
      unit: 'chunks/s',
      value: chunksPerSecond,
      baseline: raw,
      ratio: raw / chunksPerSecond,
      notes: 'baseline: the same rows via prepared statements; ratio = pipeline cost multiple',
    },
    {
      name: `extraction phase, ${slow} chunks, ${latency} ms model, concurrency ${concurrency}`,
      unit: 'ms',
      value: timed.extractMs,
      baseline: ideal,
      ratio: timed.extractMs / ideal,
      notes: `ideal = chunks / concurrency × latency; whole cycle ${Math.round(timed.wallMs)} ms`,
    },
    ...withEmbedder,
  ]
}

await runWhenMain(import.meta.url, run)
