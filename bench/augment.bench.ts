/**
 * augment() latency against the raw SQLite queries it wraps.
 *
 * Stores of 10k and 100k messages (one chunk per 4 messages, 384-d vectors on messages, chunks, episodes,
 * notes and edges) and a 20k-edge graph over ~3k entities, generated from a seeded PRNG with Zipf-distributed words and
 * inserted with raw batched SQL. For every query both are timed in the same run, interleaved:
 *  - augment(): the whole hot path (embed, FTS, KNN, fusion, entities, graph, notes, search_log row);
 *  - baseline: the raw FTS5 MATCH queries over messages, chunks, episodes, procedures and notes plus the
 *    vec0 KNN over messages, chunks, episodes and notes, as prepared better-sqlite3 statements, plus the vec0 KNN over
 *    edges for the queries where augment runs it (a routed predicate, or no entity matched).
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/augment.bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { ENGLISH_STOP_WORDS, openStore } from '@hymem/core-store'
import { buildMatchQuery, registerFullTextFunctions } from '@hymem/core-store/sqlite'
import type { EmbeddingClient } from '@hymem/extraction'
import { createQueryEngine, DEFAULT_QUERY_CONFIG, routePredicates } from '@hymem/query'
import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { runWhenMain } from './results-table'
import { prng, pseudoWords, zipfPicker } from './synthetic'
import type { BenchOptions, BenchResult } from './types'

export const WS = 'bench'
export const DIM = 384
const TOPICS = 64
export const MODEL = 'bench-topic-384'
export const NOW = new Date('2026-06-01T00:00:00.000Z')
const PREDICATES = ['uses', 'depends_on', 'prefers', 'rejects', 'avoids', 'replaces', 'deploys_to', 'part_of']
const PREDICATES_RARE = [
  'configured_with',
  'requires_version',
  'runs_on',
  'connects_to',
  'generates',
  'tested_by',
]
const TECH = [
  'postgres',
  'redis',
  'kafka',
  'nginx',
  'docker',
  'terraform',
  'grafana',
  'vault',
  'fastapi',
  'django',
]
const PEOPLE = ['atta', 'bob', 'carol', 'dave', 'erin', 'frank', 'grace', 'heidi']

const rand = prng(42)
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!
/** 5000 pseudo-words; picked with a Zipf-like skew so a few are very common, like real text. */
const WORDS = pseudoWords(5000)
const zipfWord = zipfPicker(WORDS, rand)
const ENTITIES = [
  ...TECH,
  ...PEOPLE,
  ...Array.from({ length: 3000 }, (_, i) => `${pick(['svc', 'team', 'proj', 'lib'])}_${WORDS[i % 900]}_${i}`),
]

/** Topic vectors: stored and query vectors are a topic plus noise, so KNN has realistic structure. */
const topicVectors = Array.from({ length: TOPICS }, () =>
  unit(Float32Array.from({ length: DIM }, () => rand() - 0.5)),
)
function unit(v: Float32Array): Float32Array {
  let n = 0
  for (const x of v) n += x * x
  n = Math.sqrt(n) || 1
  for (let i = 0; i < v.length; i++) v[i]! /= n
  return v
}
export function vectorFor(text: string): Float32Array {
  let h = 2166136261
  for (let i = 0; i < text.length; i++) h = Math.imul(h ^ text.charCodeAt(i), 16777619)
  const noise = prng(h)
  const topic = topicVectors[(h >>> 0) % TOPICS]!
  return unit(Float32Array.from(topic, (x) => x + (noise() - 0.5) * 0.08))
}
const blob = (v: Float32Array) => Buffer.from(v.buffer, v.byteOffset, v.byteLength)

/** An embedder over the same topic space (no network: the bench measures HyMem, not a provider). */
export const embeddings: EmbeddingClient = {
  name: 'bench:topic',
  model: MODEL,
  dimensions: DIM,
  embed: async (texts) => texts.map(vectorFor),
}

function sentence(): string {
  const parts = [pick(PEOPLE), zipfWord(), zipfWord(), pick(ENTITIES), zipfWord(), zipfWord(), zipfWord()]
  if (rand() < 0.5) parts.push(pick(TECH), zipfWord())
  return `${parts.join(' ')}.`
}

const iso = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString()

/** Fills the file with raw batched SQL (one transaction per table). */
export function populate(path: string, messages: number, edges: number): void {
  const db = new Database(path)
  registerFullTextFunctions(db)
  sqliteVec.load(db)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const sessions = Math.ceil(messages / 50)
  db.transaction(() => {
    db.prepare('INSERT INTO workspaces (id, created_at) VALUES (?, ?)').run(WS, iso(400))
    const peer = db.prepare('INSERT INTO peers (workspace_id, id, role, created_at) VALUES (?, ?, ?, ?)')
    for (const p of [...PEOPLE, 'assistant'])
      peer.run(WS, p, p === 'assistant' ? 'assistant' : 'user', iso(400))
    const session = db.prepare(
      'INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES (?, ?, ?, ?)',
    )
    const member = db.prepare(
      'INSERT INTO session_peers (workspace_id, session_id, peer_id, joined_at) VALUES (?, ?, ?, ?)',
    )
    for (let s = 0; s < sessions; s++) {
      session.run(WS, `s${s}`, iso(365 - s * (365 / sessions)), iso(365))
      member.run(WS, `s${s}`, PEOPLE[s % PEOPLE.length], iso(365))
      member.run(WS, `s${s}`, 'assistant', iso(365))
    }
    const message = db.prepare(
      'INSERT INTO messages (id, public_id, workspace_id, session_id, peer_id, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const chunk = db.prepare(
      'INSERT INTO chunks (id, workspace_id, session_id, text, salience_reason, message_ids, first_message_id, last_message_id, occurred_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const chunkVector = db.prepare(
      'INSERT INTO chunk_embeddings (chunk_id, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    )
    const messageVector = db.prepare(
      'INSERT INTO message_embeddings (message_id, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    )
    let texts: string[] = []
    for (let id = 1; id <= messages; id++) {
      const s = Math.floor((id - 1) / 50)
      const user = id % 2 === 1
      const text = sentence()
      const author = user ? PEOPLE[s % PEOPLE.length]! : 'assistant'
      message.run(
        id,
        `m${id}`,
        WS,
        `s${s}`,
        author,
        user ? 'user' : 'assistant',
        text,
        iso(365 - (id / messages) * 365),
      )
      messageVector.run(id, WS, MODEL, `m${id}`, blob(vectorFor(`${author}: ${text}`)))
      texts.push(text)
      if (id % 4 === 0) {
        const chunkId = id / 4
        const chunkText = texts.join(' ')
        chunk.run(
          chunkId,
          WS,
          `s${s}`,
          chunkText,
          'bench',
          JSON.stringify([id - 3, id - 2, id - 1, id]),
          id - 3,
          id,
          iso(365 - (id / messages) * 365),
          iso(1),
        )
        chunkVector.run(chunkId, WS, MODEL, `h${chunkId}`, blob(vectorFor(chunkText)))
        texts = []
      }
    }
    const edge = db.prepare(
      `INSERT OR IGNORE INTO knowledge_graph (id, workspace_id, subject, predicate, object, pos_evidence, neg_evidence, confidence,
        status, derived, first_seen, last_seen, last_reinforced, valid_from, valid_to) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const evidence = db.prepare(
      'INSERT INTO kg_evidence (workspace_id, edge_id, chunk_id, message_ids, polarity, observed_at, created_at) VALUES (?, ?, ?, ?, 1, ?, ?)',
    )
    const edgeVector = db.prepare(
      'INSERT INTO edge_vectors (edge_id, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    )
    const chunks = Math.floor(messages / 4)
    for (let id = 1; id <= edges; id++) {
      const subject = rand() < 0.3 ? pick([...TECH, ...PEOPLE]) : pick(ENTITIES)
      const predicate = rand() < 0.85 ? pick(PREDICATES) : pick(PREDICATES_RARE)
      const object = rand() < 0.5 ? pick(TECH) : pick(ENTITIES)
      const pos = 1 + Math.floor(rand() * 5)
      const neg = rand() < 0.2 ? 1 + Math.floor(rand() * 2) : 0
      const seen = rand() * 365
      const fate = rand()
      const status = fate < 0.05 ? 'retracted' : 'active'
      const validTo = fate > 0.95 ? iso(seen / 2) : null
      const added = edge.run(
        id,
        WS,
        subject,
        predicate,
        object,
        pos,
        neg,
        (pos + 1) / (pos + neg + 2),
        status,
        fate > 0.9 && fate <= 0.95 ? 1 : 0,
        iso(seen + 10),
        iso(seen),
        iso(seen),
        iso(seen + 10),
        validTo,
      )
      if (added.changes === 0) continue
      const chunkId = 1 + Math.floor(rand() * chunks)
      evidence.run(WS, id, chunkId, JSON.stringify([chunkId * 4]), iso(seen), iso(seen))
      edgeVector.run(id, WS, MODEL, `e${id}`, blob(vectorFor(`${subject} ${predicate} ${object}`)))
    }
    const type = db.prepare(
      'INSERT OR IGNORE INTO entity_types (workspace_id, entity, type, evidence, updated_at) VALUES (?, ?, ?, ?, ?)',
    )
    for (const t of TECH) type.run(WS, t, pick(['database', 'queue', 'framework', 'tool']), 3, iso(1))
    for (const e of ENTITIES.slice(TECH.length + PEOPLE.length, 1200))
      type.run(WS, e, e.split('_')[0], 1, iso(1))
    const alias = db.prepare(
      'INSERT OR IGNORE INTO entity_aliases (workspace_id, surface, canonical, created_at) VALUES (?, ?, ?, ?)',
    )
    alias.run(WS, 'pg', 'postgres', iso(1))
    alias.run(WS, 'postgresql', 'postgres', iso(1))
    const episode = db.prepare(
      'INSERT INTO episodes (id, workspace_id, session_id, title, summary, message_ids, started_at, ended_at, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const episodeVector = db.prepare(
      'INSERT INTO episode_embeddings (episode_id, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    )
    for (let s = 0; s < sessions; s++) {
      const title = `${pick(ENTITIES)} ${zipfWord()} ${zipfWord()}`
      const summary = `${sentence()} ${sentence()}`
      episode.run(
        `ep${s}`,
        WS,
        `s${s}`,
        title,
        summary,
        JSON.stringify([s * 50 + 1, s * 50 + 2]),
        iso(1),
        iso(1),
        iso(1),
        iso(1),
      )
      episodeVector.run(`ep${s}`, WS, MODEL, `ep${s}`, blob(vectorFor(`${title}. ${summary}`)))
    }
    const procedure = db.prepare(
      'INSERT INTO procedures (id, workspace_id, session_id, name, description, steps, steps_text, created_at, updated_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    for (let p = 0; p < 200; p++) {
      const steps = [sentence(), sentence(), sentence()]
      procedure.run(
        `p${p}`,
        WS,
        `s${p % sessions}`,
        `${zipfWord()} ${pick(TECH)}`,
        sentence(),
        JSON.stringify(steps),
        steps.join('\n'),
        iso(1),
        iso(1),
      )
    }
    const note = db.prepare(
      'INSERT INTO notes (id, workspace_id, description, content, created_at, updated_at, last_accessed_at) VALUES (?, ?, ?, ?, ?, ?, ?)',
    )
    const noteVector = db.prepare(
      'INSERT INTO note_embeddings (note_id, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    )
    for (let n = 0; n < 500; n++) {
      const description = `${pick(ENTITIES)} ${zipfWord()}`
      const content = sentence()
      note.run(`n${n}`, WS, description, content, iso(30), iso(30), iso(30))
      noteVector.run(`n${n}`, WS, MODEL, `n${n}`, blob(vectorFor(`${description} ${content}`)))
    }
    const pin = db.prepare(
      'INSERT INTO vector_indexes (name, model, dimensions, created_at) VALUES (?, ?, ?, ?)',
    )
    for (const index of ['chunks', 'edges', 'episodes', 'notes', 'messages'])
      pin.run(index, MODEL, DIM, iso(1))
  })()
  db.close()
}

export function queries(count: number): string[] {
  const templates = [
    () => `what does ${pick(ENTITIES).replaceAll('_', ' ')} use for ${pick(TECH)}?`,
    () => `tell me about ${pick(PEOPLE)} and ${zipfWord()}`,
    () => `which version of ${pick(TECH)} do we need`,
    () => `${zipfWord()} ${zipfWord()} ${zipfWord()}`,
    () => `why did ${pick(PEOPLE)} reject ${pick(TECH)} last time, was it the ${zipfWord()}?`,
    () => `how is ${pick(TECH)} configured in ${pick(ENTITIES).replaceAll('_', ' ')}`,
    () => `anything about ${WORDS[4000 + Math.floor(rand() * 900)]}`,
  ]
  return Array.from({ length: count }, (_, i) => templates[i % templates.length]!())
}

export const percentile = (sorted: readonly number[], p: number) =>
  sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!

async function measure(messages: number, edges: number, rounds: number): Promise<BenchResult[]> {
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-'))
  const path = join(dir, 'hymem.sqlite')
  const cpu = process.cpuUsage()
  try {
    openStore({ path }).close()
    const seeded = performance.now()
    populate(path, messages, edges)
    const seedSeconds = (performance.now() - seeded) / 1000
    const store = openStore({ path, clock: () => NOW })
    const engine = createQueryEngine({ store, embeddings })
    const raw = new Database(path, { readonly: true })
    sqliteVec.load(raw)
    const fts = (table: string, key: string, rowid: string, limit: number) =>
      raw.prepare(
        `SELECT c.${key} AS id, -bm25(${table}_fts) AS score FROM ${table}_fts JOIN ${table} c ON c.${rowid} = ${table}_fts.rowid
         WHERE ${table}_fts MATCH ? AND c.workspace_id = ? ORDER BY bm25(${table}_fts) LIMIT ${limit}`,
      )
    const knn = (table: string, k: number) =>
      raw.prepare(
        `SELECT rowid, distance FROM vec_${table} WHERE embedding MATCH ? AND k = ${k} AND workspace_id = ?`,
      )
    const asks = queries(rounds)
    // A first KNN per index creates its vec0 table from the stored vectors (a one-time cost, not timed).
    for (const index of ['messages', 'chunks', 'edges', 'episodes', 'notes'] as const)
      await store.vectors.nearest(index, vectorFor('warm up'), { workspaceId: WS, k: 1, model: MODEL })
    const rawQueries = [
      fts('messages', 'id', 'id', 20),
      fts('chunks', 'id', 'id', 20),
      fts('episodes', 'id', 'rowid', 9),
      fts('procedures', 'id', 'rowid', 3),
      fts('notes', 'id', 'rowid', 20),
    ]
    const rawKnn = [
      knn('messages', DEFAULT_QUERY_CONFIG.denseTurnTopK),
      knn('chunks', 20),
      knn('episodes', 9),
      knn('notes', 20),
    ]
    const edgeKnn = knn('edges', 10)
    const baselineOnce = (query: string, edgesToo: boolean) => {
      const match = buildMatchQuery(query, { stopWords: ENGLISH_STOP_WORDS })
      const vector = blob(vectorFor(query))
      if (match) for (const statement of rawQueries) statement.all(match, WS)
      for (const statement of rawKnn) statement.all(vector, WS)
      if (edgesToo) edgeKnn.all(vector, WS)
    }
    const runsEdgeKnn = (query: string, matched: readonly string[]) =>
      matched.length === 0 || routePredicates(query).length > 0
    // Untimed pass: warms both paths and records which queries make augment run the edge KNN.
    const edgesToo = new Map<string, boolean>()
    for (const query of asks) {
      const context = await engine.augment(query, { workspaceId: WS })
      edgesToo.set(query, runsEdgeKnn(query, context.matchedEntities))
      baselineOnce(query, edgesToo.get(query)!)
    }
    const augmentMs: number[] = []
    const baselineMs: number[] = []
    const stages: Record<string, number> = {}
    const timeAugment = async (query: string) => {
      const started = performance.now()
      const context = await engine.augment(query, { workspaceId: WS })
      augmentMs.push(performance.now() - started)
      for (const [stage, ms] of Object.entries(context.timings)) stages[stage] = (stages[stage] ?? 0) + ms
    }
    const timeBaseline = (query: string) => {
      const started = performance.now()
      baselineOnce(query, edgesToo.get(query)!)
      baselineMs.push(performance.now() - started)
    }
    // Alternate which goes first, so neither side systematically inherits the other's warm cache.
    for (const [i, query] of asks.entries()) {
      if (i % 2 === 0) {
        await timeAugment(query)
        timeBaseline(query)
      } else {
        timeBaseline(query)
        await timeAugment(query)
      }
    }
    const edgeKnnRuns = [...edgesToo.values()].filter(Boolean).length
    raw.close()
    await store.close()
    augmentMs.sort((a, b) => a - b)
    baselineMs.sort((a, b) => a - b)
    const used = process.cpuUsage(cpu)
    const cpuSeconds = (used.user + used.system) / 1e6
    const label = `${messages / 1000}k msgs`
    const p50 = percentile(augmentMs, 50)
    const b50 = percentile(baselineMs, 50)
    const p95 = percentile(augmentMs, 95)
    const b95 = percentile(baselineMs, 95)
    const heaviest = Object.entries(stages)
      .filter(([stage]) => !['total', 'hits'].includes(stage))
      .sort((a, b) => b[1] - a[1])
      .slice(0, 4)
      .map(([stage, ms]) => `${stage} ${(ms / asks.length).toFixed(2)}`)
      .join(', ')
    return [
      {
        name: `augment p50, ${label}`,
        unit: 'ms',
        value: p50,
        baseline: b50,
        ratio: p50 / b50,
        notes: `${asks.length} queries (${edgeKnnRuns} with edge KNN), ${edges / 1000}k edges, ${DIM}-d; seeded in ${seedSeconds.toFixed(1)} s, ${cpuSeconds.toFixed(0)} s CPU in all`,
      },
      {
        name: `augment p95, ${label}`,
        unit: 'ms',
        value: p95,
        baseline: b95,
        ratio: p95 / b95,
        notes: `mean ms: ${heaviest}`,
      },
    ]
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

/** The bench entry point (see the file comment). */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const sizes = options.quick ? [10_000] : [10_000, 100_000]
  const results: BenchResult[] = []
  for (const messages of sizes) results.push(...(await measure(messages, 20_000, options.quick ? 30 : 50)))
  return results
}

await runWhenMain(import.meta.url, run)
