/**
 * augment() latency on PostgreSQL against the raw tsvector + pgvector queries it wraps, and against augment() on
 * the SQLite backend over the same data.
 *
 * The store of augment.bench.ts (same generator and seed) is written to a SQLite file with raw SQL, then its
 * rows are copied into a migrated HyMem schema on PostgreSQL with multi-row INSERTs, and each vector table gets
 * the HNSW index the store builds (postgres-copy.ts). PostgreSQL is an in-process PGlite (always) and, when
 * HYMEM_TEST_DATABASE_URL is set, that server too (in a schema of its own, dropped afterwards). For every query,
 * interleaved in one run:
 *  - augment() on PostgreSQL: the whole hot path (embed, FTS, KNN, fusion, entities, graph, notes, search_log row);
 *  - baseline: the raw `fts @@ to_tsquery(...)` queries over messages, chunks, episodes, procedures and notes
 *    plus the pgvector KNN (HNSW, cosine) over messages, chunks, episodes and notes, and over edges for the
 *    queries where augment runs it, filtered by workspace as the store does;
 *  - augment() on SQLite over the file the copy came from;
 *  - on the server, the raw queries again, sent together over a pool: augment issues its independent searches
 *    at once on the store's pool, so this is the baseline without the concurrency it gains.
 * An untimed pass over other questions warms all three first.
 *
 * PGlite gets 2,000 messages, the server 10,000 (quick: 2,000 both; `--messages N` sets both).
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/augment-postgres.bench.ts [--quick] [--messages 10000]
 *     [--server-only]   (skips PGlite: seeding 100k rows into it takes longer than the bench is worth)
 */
import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { vector } from '@electric-sql/pglite-pgvector'
import { ENGLISH_STOP_WORDS, openStore, type Store } from '@hymem/core-store'
import { buildTsquery, openPostgresStore } from '@hymem/core-store/postgres'
import { createQueryEngine, DEFAULT_QUERY_CONFIG, routePredicates } from '@hymem/query'
import pg from 'pg'
import { DIM, embeddings, MODEL, NOW, percentile, populate, queries, vectorFor, WS } from './augment.bench'
import { copyBenchRows, type RawQuery } from './postgres-copy'
import { formatResults, isMainModule } from './results-table'
import type { BenchOptions, BenchResult } from './types'

interface PostgresSide {
  readonly label: string
  readonly store: Store
  readonly raw: RawQuery
  /** The same raw queries on a pool of connections, so they can run at once as augment's searches do. */
  readonly pooled?: RawQuery
  close(): Promise<void>
}

const FTS: readonly [table: string, limit: number][] = [
  ['messages', 20],
  ['chunks', 20],
  ['episodes', 9],
  ['procedures', 3],
  ['notes', 20],
]
const KNN: readonly [table: string, idColumn: string, k: number][] = [
  ['message_embeddings', 'message_id', DEFAULT_QUERY_CONFIG.denseTurnTopK],
  ['chunk_embeddings', 'chunk_id', 20],
  ['episode_embeddings', 'episode_id', 9],
  ['note_embeddings', 'note_id', 20],
]

const ftsSql = (table: string, limit: number) => `
  SELECT c.id AS id, ts_rank(c.fts, q, 1) AS score
  FROM ${table} AS c, to_tsquery('hymem_english'::regconfig, $1) AS q
  WHERE c.fts @@ q AND c.workspace_id = $2
  ORDER BY score DESC, c.id LIMIT ${limit}`
const knnSql = (table: string, idColumn: string, k: number) => `
  SELECT ${idColumn} AS id, (vector::vector(${DIM}) <=> $1::vector(${DIM})) AS distance
  FROM ${table} WHERE workspace_id = $2 ORDER BY distance LIMIT ${k}`

const literal = (v: Float32Array) => `[${Array.prototype.join.call(v, ',')}]`

/** The raw queries one augment() wraps on PostgreSQL: one after another, or all at once. */
async function baselineOnce(raw: RawQuery, query: string, edgesToo: boolean, atOnce = false): Promise<void> {
  const tsquery = buildTsquery(query, { mode: 'or', stopWords: ENGLISH_STOP_WORDS })
  const near = literal(vectorFor(query))
  const statements: [string, unknown[]][] = [
    ...(tsquery
      ? FTS.map(([table, limit]): [string, unknown[]] => [ftsSql(table, limit), [tsquery, WS]])
      : []),
    ...KNN.map(([table, id, k]): [string, unknown[]] => [knnSql(table, id, k), [near, WS]]),
    ...(edgesToo ? [[knnSql('edge_vectors', 'edge_id', 10), [near, WS]] as [string, unknown[]]] : []),
  ]
  if (atOnce) await Promise.all(statements.map(([text, params]) => raw(text, params)))
  else for (const [text, params] of statements) await raw(text, params)
}

async function pgliteSide(sqlitePath: string): Promise<{ side: PostgresSide; copySeconds: number }> {
  const pglite = await PGlite.create({ extensions: { vector, unaccent } })
  const store = await openPostgresStore({ pglite, clock: () => NOW })
  const raw: RawQuery = async (text, params) => pglite.query<Record<string, unknown>>(text, [...params])
  const started = performance.now()
  await copyBenchRows(sqlitePath, raw, DIM)
  const copySeconds = (performance.now() - started) / 1000
  return {
    copySeconds,
    side: {
      label: 'PGlite',
      store,
      raw,
      async close() {
        await store.close()
        await pglite.close()
      },
    },
  }
}

async function serverSide(
  url: string,
  sqlitePath: string,
): Promise<{ side: PostgresSide; copySeconds: number }> {
  const schema = `bench_${process.pid}_${Date.now().toString(36)}`
  const target = `${url}${url.includes('?') ? '&' : '?'}schema=${schema}`
  const store = await openPostgresStore({ url: target, clock: () => NOW })
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  await client.query(`SET search_path TO ${schema}, public`)
  const raw: RawQuery = (text, params) => client.query(text, [...params])
  const pool = new pg.Pool({ connectionString: url, max: 10, options: `-c search_path=${schema},public` })
  const pooled: RawQuery = (text, params) => pool.query(text, [...params])
  const started = performance.now()
  await copyBenchRows(sqlitePath, raw, DIM)
  const copySeconds = (performance.now() - started) / 1000
  return {
    copySeconds,
    side: {
      label: 'PostgreSQL server',
      store,
      raw,
      pooled,
      async close() {
        await pool.end()
        await store.close()
        await client.query(`DROP SCHEMA ${schema} CASCADE`)
        await client.end()
      },
    },
  }
}

async function measureOn(
  open: Promise<{ side: PostgresSide; copySeconds: number }>,
  sqlitePath: string,
  messages: number,
  rounds: number,
): Promise<BenchResult[]> {
  const { side, copySeconds } = await open
  const sqliteStore = openStore({ path: sqlitePath, clock: () => NOW })
  try {
    const pgEngine = createQueryEngine({ store: side.store, embeddings })
    const sqliteEngine = createQueryEngine({ store: sqliteStore, embeddings })
    for (const index of ['messages', 'chunks', 'edges', 'episodes', 'notes'] as const) {
      await sqliteStore.vectors.nearest(index, vectorFor('warm up'), { workspaceId: WS, k: 1, model: MODEL })
    }
    // The warm-up asks other questions than the timed pass: the timed queries' rarer words reach the PostgreSQL
    // store with no counted term frequencies, as a new question would (its common words are counted, as they
    // would be in a server that has been answering for a while).
    const asked = queries(rounds * 2)
    const [asks, warmUps] = [asked.slice(0, rounds), asked.slice(rounds)]
    for (const query of warmUps) {
      await pgEngine.augment(query, { workspaceId: WS })
      await baselineOnce(side.raw, query, true)
      if (side.pooled) await baselineOnce(side.pooled, query, true, true)
      await sqliteEngine.augment(query, { workspaceId: WS })
    }
    // Which timed queries make augment run the edge KNN, read on SQLite (same data, same engine).
    const edgesToo = new Map<string, boolean>()
    for (const query of asks) {
      const context = await sqliteEngine.augment(query, { workspaceId: WS })
      edgesToo.set(query, context.matchedEntities.length === 0 || routePredicates(query).length > 0)
    }
    const timings = {
      pg: [] as number[],
      raw: [] as number[],
      atOnce: [] as number[],
      sqlite: [] as number[],
    }
    const stages: Record<string, number> = {}
    const pgAugment = async (query: string) => {
      const context = await pgEngine.augment(query, { workspaceId: WS })
      for (const [stage, ms] of Object.entries(context.timings)) stages[stage] = (stages[stage] ?? 0) + ms
    }
    const timed = async (into: number[], fn: () => Promise<unknown>) => {
      const started = performance.now()
      await fn()
      into.push(performance.now() - started)
    }
    for (const [i, query] of asks.entries()) {
      const steps = [
        () => timed(timings.pg, () => pgAugment(query)),
        () => timed(timings.raw, () => baselineOnce(side.raw, query, edgesToo.get(query)!)),
        () => timed(timings.sqlite, () => sqliteEngine.augment(query, { workspaceId: WS })),
        ...(side.pooled
          ? [() => timed(timings.atOnce, () => baselineOnce(side.pooled!, query, edgesToo.get(query)!, true))]
          : []),
      ]
      // Rotate the order, so no side systematically inherits another's warm cache.
      for (let s = 0; s < steps.length; s++) await steps[(i + s) % steps.length]!()
    }
    for (const list of Object.values(timings)) list.sort((a, b) => a - b)
    const label = `${messages / 1000}k msgs, ${side.label}`
    const p50 = percentile(timings.pg, 50)
    const raw50 = percentile(timings.raw, 50)
    const sqlite50 = percentile(timings.sqlite, 50)
    const p95 = percentile(timings.pg, 95)
    const raw95 = percentile(timings.raw, 95)
    return [
      {
        name: `augment p50, ${label}`,
        unit: 'ms',
        value: p50,
        baseline: raw50,
        ratio: p50 / raw50,
        notes: `${asks.length} queries; rows copied in and HNSW built in ${copySeconds.toFixed(1)} s`,
      },
      {
        name: `augment p95, ${label}`,
        unit: 'ms',
        value: p95,
        baseline: raw95,
        ratio: p95 / raw95,
        notes: `mean ms: ${Object.entries(stages)
          .filter(([stage]) => !['total', 'hits'].includes(stage))
          .sort((a, b) => b[1] - a[1])
          .slice(0, 4)
          .map(([stage, ms]) => `${stage} ${(ms / asks.length).toFixed(1)}`)
          .join(', ')}`,
      },
      ...(timings.atOnce.length > 0
        ? [
            {
              name: `augment p50 vs raw at once, ${label}`,
              unit: 'ms',
              value: p50,
              baseline: percentile(timings.atOnce, 50),
              ratio: p50 / percentile(timings.atOnce, 50),
              notes: 'baseline here: the same raw queries sent together over a pool of 10 connections',
            },
          ]
        : []),
      {
        name: `augment p50 vs SQLite, ${label}`,
        unit: 'ms',
        value: p50,
        baseline: sqlite50,
        ratio: p50 / sqlite50,
        notes: 'baseline here: augment() on the SQLite file the copy came from (sqlite-vec)',
      },
    ]
  } finally {
    await sqliteStore.close()
    await side.close()
  }
}

/** The bench entry point (see the file comment). */
export async function run(
  options: BenchOptions & { messages?: number; serverOnly?: boolean },
): Promise<BenchResult[]> {
  const messages = options.messages ?? (options.quick ? 2_000 : 10_000)
  // Copying rows into PGlite and building its HNSW indexes is one WASM session: 10k took 328 s of a run at
  // load 15-20, most of the whole bench. Its ratio to the raw queries is a per-query cost, shown at 2k.
  const pgliteMessages = options.messages ?? 2_000
  const rounds = options.quick ? 20 : 50
  const results: BenchResult[] = []
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-pg-'))
  const seeded = (size: number) => {
    const sqlitePath = join(dir, `hymem-${size}.sqlite`)
    openStore({ path: sqlitePath }).close()
    populate(sqlitePath, size, Math.min(20_000, size * 2))
    return sqlitePath
  }
  try {
    if (!options.serverOnly) {
      const sqlitePath = seeded(pgliteMessages)
      results.push(...(await measureOn(pgliteSide(sqlitePath), sqlitePath, pgliteMessages, rounds)))
    }
    const url = process.env.HYMEM_TEST_DATABASE_URL
    if (url) {
      const sqlitePath = seeded(messages)
      results.push(...(await measureOn(serverSide(url, sqlitePath), sqlitePath, messages, rounds)))
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
  return results
}

if (isMainModule(import.meta.url)) {
  const at = process.argv.indexOf('--messages')
  const messages = at > 0 ? Number(process.argv[at + 1]) : undefined
  const results = await run({
    quick: process.argv.includes('--quick'),
    ...(messages ? { messages } : {}),
    serverOnly: process.argv.includes('--server-only'),
  })
  console.log(formatResults(results))
}
