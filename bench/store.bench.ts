/**
 * @hymem/core-store against the raw better-sqlite3 / SQLite operations it wraps, measured in the same run and
 * interleaved (one wrapper step, one raw step) so machine load hits both alike:
 *  (a) ingest: `messages.insertBatch` (batches of 100) vs a prepared single-row INSERT looped inside one
 *      transaction per batch, on a separate file with the same schema and FTS trigger (both count o200k tokens);
 *  (b) FTS: `store.fullText.search('messages', …)` vs the same FTS5 MATCH + BM25 query, prepared, on the same file;
 *  (c) KNN: `store.vectors.nearest('chunks', …, k=10)` over 384-d vectors vs the raw vec0 KNN query.
 * Full mode uses 100k rows, quick mode 10k. Text is seeded Zipf-distributed pseudo-words.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/store.bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { loadTokenCounter, type NewMessage, openStore, randomId, type SqliteStore } from '@hymem/core-store'
import { buildMatchQuery, MIGRATIONS, registerFullTextFunctions } from '@hymem/core-store/sqlite'
import Database from 'better-sqlite3'
import * as sqliteVec from 'sqlite-vec'
import { runWhenMain } from './results-table'
import { prng, pseudoWords, sentenceMaker, zipfPicker } from './synthetic'
import type { BenchOptions, BenchResult } from './types'

const WS = 'bench'
const BATCH = 100
const DIM = 384
const MODEL = 'bench-random-384'
const NOW = '2026-06-01T00:00:00.000Z'

const rand = prng(7)
const WORDS = pseudoWords(4000)
const zipfWord = zipfPicker(WORDS, rand)
const sentence = sentenceMaker(zipfWord, rand)

function randomVector(): Float32Array {
  const v = new Float32Array(DIM)
  for (let i = 0; i < DIM; i++) v[i] = rand() * 2 - 1
  return v
}

const percentile = (values: number[], p: number) => {
  const sorted = [...values].sort((a, b) => a - b)
  return sorted[Math.min(sorted.length - 1, Math.floor((p / 100) * sorted.length))]!
}
const sum = (values: number[]) => values.reduce((a, b) => a + b, 0)

function rawConnection(path: string, withVec: boolean): Database.Database {
  const db = new Database(path)
  registerFullTextFunctions(db)
  db.pragma('busy_timeout = 10000')
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = NORMAL')
  db.pragma('foreign_keys = ON')
  if (withVec) sqliteVec.load(db)
  return db
}

/** (a) Ingest throughput. Returns the store (now holding `total` messages) for the FTS measurement. */
async function ingest(dir: string, total: number): Promise<{ store: SqliteStore; results: BenchResult[] }> {
  const store = openStore({ path: join(dir, 'store.sqlite') })
  const raw = rawConnection(join(dir, 'raw.sqlite'), false)
  for (const migration of MIGRATIONS) raw.exec(migration.sql)
  raw.prepare('INSERT INTO workspaces (id, created_at) VALUES (?, ?)').run(WS, NOW)
  for (let s = 0; s < 10; s++) {
    raw
      .prepare('INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES (?, ?, ?, ?)')
      .run(WS, `s${s}`, NOW, NOW)
  }
  for (const [peer, role] of [
    ['user-1', 'user'],
    ['hermes', 'assistant'],
  ]) {
    raw
      .prepare('INSERT INTO peers (workspace_id, id, role, created_at) VALUES (?, ?, ?, ?)')
      .run(WS, peer, role, NOW)
  }
  const insertOne = raw.prepare(
    `INSERT INTO messages (public_id, workspace_id, session_id, peer_id, role, content, metadata, token_count, created_at)
     VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?)`,
  )
  const countTokens = await loadTokenCounter()
  const rawBatch = raw.transaction((session: string, batch: readonly NewMessage[]) => {
    const now = new Date().toISOString()
    for (const m of batch) {
      insertOne.run(
        randomId(),
        WS,
        session,
        m.peerId,
        m.peerId === 'hermes' ? 'assistant' : 'user',
        m.content,
        '{}',
        countTokens(m.content),
        now,
      )
    }
  })

  const batches: NewMessage[][] = Array.from({ length: total / BATCH }, () =>
    Array.from({ length: BATCH }, (_, i) => ({
      peerId: i % 2 === 0 ? 'user-1' : 'hermes',
      content: sentence(),
    })),
  )
  let wrapperMs = 0
  let rawMs = 0
  for (const [k, batch] of batches.entries()) {
    const session = `s${k % 10}`
    let t = performance.now()
    await store.messages.insertBatch(WS, session, batch)
    wrapperMs += performance.now() - t
    t = performance.now()
    rawBatch(session, batch)
    rawMs += performance.now() - t
  }
  raw.close()
  const wrapperRate = total / (wrapperMs / 1000)
  const rawRate = total / (rawMs / 1000)
  return {
    store,
    results: [
      {
        name: `ingest insertBatch, ${total / 1000}k msgs`,
        unit: 'msg/s',
        value: wrapperRate,
        baseline: rawRate,
        ratio: rawRate / wrapperRate,
        notes: `batches of ${BATCH}; ratio = raw rate / wrapper rate`,
      },
    ],
  }
}

/** (b) FTS query latency on the ingested store. */
async function fullText(store: SqliteStore, total: number, queries: number): Promise<BenchResult[]> {
  const raw = rawConnection(store.path, false)
  const rawSearch = raw.prepare(
    `SELECT c.id AS id, -bm25(messages_fts) AS score
     FROM messages_fts JOIN messages AS c ON c.id = messages_fts.rowid
     WHERE messages_fts MATCH ? AND c.workspace_id = ? ORDER BY bm25(messages_fts) LIMIT ?`,
  )
  const texts = Array.from({ length: queries }, () =>
    Array.from({ length: 1 + Math.floor(rand() * 3) }, () => WORDS[40 + Math.floor(rand() * 800)]!).join(' '),
  )
  const wrapper: number[] = []
  const baseline: number[] = []
  let hits = 0
  for (const [i, text] of [...texts, ...texts].entries()) {
    let t = performance.now()
    const found = await store.fullText.search('messages', text, { workspaceId: WS, limit: 10 })
    const w = performance.now() - t
    t = performance.now()
    rawSearch.all(buildMatchQuery(text), WS, 10)
    const r = performance.now() - t
    if (i < texts.length) continue // first pass warms the page cache for both
    wrapper.push(w)
    baseline.push(r)
    hits += found.length
  }
  raw.close()
  const [w50, r50] = [percentile(wrapper, 50), percentile(baseline, 50)]
  return [
    {
      name: `FTS search p50, ${total / 1000}k msgs`,
      unit: 'ms',
      value: w50,
      baseline: r50,
      ratio: w50 / r50,
      notes: `${queries} OR-queries of 1–3 words, limit 10, ${(hits / queries).toFixed(1)} hits avg`,
    },
    {
      name: `FTS search mean, ${total / 1000}k msgs`,
      unit: 'ms',
      value: sum(wrapper) / queries,
      baseline: sum(baseline) / queries,
      ratio: sum(wrapper) / sum(baseline),
    },
  ]
}

/** (c) vec0 KNN k=10 over `total` chunk vectors. */
async function knn(dir: string, total: number, queries: number): Promise<BenchResult[]> {
  const path = join(dir, 'vectors.sqlite')
  const store = openStore({ path })
  try {
    const seed = rawConnection(path, false)
    seed.prepare('INSERT INTO workspaces (id, created_at) VALUES (?, ?)').run(WS, NOW)
    seed
      .prepare('INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES (?, ?, ?, ?)')
      .run(WS, 's', NOW, NOW)
    const chunk = seed.prepare(
      `INSERT INTO chunks (workspace_id, session_id, text, salience_reason, first_message_id, last_message_id, occurred_at, created_at)
       VALUES (?, 's', 'chunk', 'bench', ?, ?, ?, ?)`,
    )
    seed.transaction(() => {
      for (let i = 1; i <= total; i++) chunk.run(WS, i, i, NOW, NOW)
    })()
    seed.close()
    // The wrapper writes the first 1000 vectors (creating and pinning vec_chunks, timed); raw SQL loads the rest.
    const firstRows = Array.from({ length: 1000 }, (_, i) => ({
      id: i + 1,
      workspaceId: WS,
      vector: randomVector(),
      textHash: String(i + 1),
    }))
    const started = performance.now()
    await store.vectors.upsert('chunks', firstRows, MODEL)
    const upsertRate = 1000 / ((performance.now() - started) / 1000)
    const loader = rawConnection(path, true)
    const embedding = loader.prepare(
      'INSERT INTO chunk_embeddings (chunk_id, workspace_id, model, text_hash, vector) VALUES (?, ?, ?, ?, ?)',
    )
    const vec0 = loader.prepare('INSERT INTO vec_chunks (rowid, workspace_id, embedding) VALUES (?, ?, ?)')
    loader.transaction(() => {
      for (let id = 1001; id <= total; id++) {
        const blob = Buffer.from(randomVector().buffer)
        embedding.run(id, WS, MODEL, String(id), blob)
        vec0.run(BigInt(id), WS, blob)
      }
    })()
    loader.close()

    const raw = rawConnection(path, true)
    const rawKnn = raw.prepare(
      'SELECT rowid, distance FROM vec_chunks WHERE embedding MATCH ? AND k = ? AND workspace_id = ?',
    )
    const probes = Array.from({ length: queries }, randomVector)
    const wrapper: number[] = []
    const baseline: number[] = []
    for (const [i, probe] of [...probes.slice(0, 3), ...probes].entries()) {
      let t = performance.now()
      const hits = await store.vectors.nearest('chunks', probe, { workspaceId: WS, k: 10, model: MODEL })
      const w = performance.now() - t
      t = performance.now()
      const rows = rawKnn.all(Buffer.from(probe.buffer, probe.byteOffset, probe.byteLength), 10, WS) as {
        rowid: number
      }[]
      const r = performance.now() - t
      if (hits.length !== 10 || rows[0]?.rowid !== hits[0]?.id)
        throw new Error('wrapper and raw KNN disagree')
      if (i < 3) continue // warm-up
      wrapper.push(w)
      baseline.push(r)
    }
    raw.close()
    const [w50, r50] = [percentile(wrapper, 50), percentile(baseline, 50)]
    return [
      {
        name: `vec0 KNN k=10 p50, ${total / 1000}k × ${DIM}-d`,
        unit: 'ms',
        value: w50,
        baseline: r50,
        ratio: w50 / r50,
        notes: `${queries} queries; vectors.upsert ${upsertRate.toFixed(0)} vectors/s`,
      },
    ]
  } finally {
    await store.close()
  }
}

/** The bench entry point (see the file comment). */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const total = options.quick ? 10_000 : 100_000
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-store-'))
  try {
    const { store, results } = await ingest(dir, total)
    try {
      results.push(...(await fullText(store, total, options.quick ? 100 : 300)))
    } finally {
      await store.close()
    }
    results.push(...(await knn(dir, total, options.quick ? 20 : 40)))
    return results
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

await runWhenMain(import.meta.url, run)
