/**
 * The Honcho HTTP layer against the facade / raw SQLite it wraps, measured in the same run:
 *  (a) add-messages throughput: batches of 50 posted by 4 concurrent HTTP clients to a live
 *      `@hymem/honcho-http` server on loopback, vs the same batches through `memory.logMessages` in-process
 *      (4 concurrent callers); rounds alternate so machine load hits both alike;
 *  (b) p50/p95 latency of `GET …/sessions/{s}/context` (4 000-token budget) vs the raw prepared SELECT of
 *      the newest 100 messages of that session;
 *  (c) p50/p95 latency of `POST …/workspaces/{ws}/search` (augment + FTS fusion + filters) vs the raw prepared
 *      FTS5 MATCH + BM25 query over messages.
 * (b) and (c) run at 100k messages (quick mode: 10k), no embeddings, no LLM, no background dreaming.
 * The HTTP clients run in the same process (and event loop) as the server, so (a) also pays the client side.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/honcho.bench.ts [--quick]
 */
import { mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import type { NewMessage, Store } from '@hymem/core-store'
import { buildMatchQuery } from '@hymem/core-store/sqlite'
import { createHonchoApp } from '@hymem/honcho-http'
import Database from 'better-sqlite3'
import { createHyMem, type HyMem, openHyMemStore } from 'hymem'
import { runWhenMain } from './results-table'
import { prng, pseudoWords, sentenceMaker, zipfPicker } from './synthetic'
import type { BenchOptions, BenchResult } from './types'

const WS = 'bench'
const BATCH = 50
const CLIENTS = 4
const PEERS = ['user-alice', 'hermes-agent', 'user-bob', 'assistant']

const rand = prng(11)
const WORDS = pseudoWords(4000)
const zipfWord = zipfPicker(WORDS, rand)
const sentence = sentenceMaker(zipfWord, rand)
const batchOf = (size: number) =>
  Array.from({ length: size }, (_, i) => ({ peerId: PEERS[i % PEERS.length]!, content: sentence() }))

function percentile(sorted: readonly number[], p: number): number {
  if (sorted.length === 0) return 0
  return sorted[Math.min(sorted.length - 1, Math.floor(p * sorted.length))]!
}

async function timeEach(samples: number, fn: (i: number) => Promise<unknown> | unknown): Promise<number[]> {
  const times: number[] = []
  for (let i = 0; i < samples; i++) {
    const started = performance.now()
    await fn(i)
    times.push(performance.now() - started)
  }
  return times.sort((a, b) => a - b)
}

/** fetch with one retry on a reset connection (an idle keep-alive socket closed by the server under us). */
async function request(url: string, init?: RequestInit): Promise<Response> {
  try {
    return await fetch(url, init)
  } catch {
    return fetch(url, init)
  }
}

async function post(url: string, body: unknown): Promise<unknown> {
  const res = await request(url, {
    method: 'POST',
    headers: { 'content-type': 'application/json' },
    body: JSON.stringify(body),
  })
  if (!res.ok) throw new Error(`${url}: ${res.status} ${await res.text()}`)
  return res.json()
}

/**
 * (a): alternating rounds of HTTP and in-process ingestion, 4 concurrent clients each, after one untimed
 * batch through each path so that one-off costs (loading the o200k tables, JIT) are charged to neither.
 */
async function ingestThroughput(memory: HyMem, base: string, messages: number): Promise<BenchResult[]> {
  await post(`${base}/v3/workspaces/${WS}/sessions/warm-up/messages`, {
    messages: batchOf(BATCH).map((m) => ({ peer_id: m.peerId, content: m.content })),
  })
  await memory.logMessages('warm-up', batchOf(BATCH), { workspaceId: WS })
  const rounds = 4
  const perClient = Math.max(1, Math.floor(messages / rounds / CLIENTS / BATCH))
  let httpMs = 0
  let localMs = 0
  let httpCount = 0
  let localCount = 0
  for (let round = 0; round < rounds; round++) {
    const work = Array.from({ length: CLIENTS }, () =>
      Array.from({ length: perClient }, () => batchOf(BATCH)),
    )
    let started = performance.now()
    await Promise.all(
      work.map(async (batches, client) => {
        for (const batch of batches) {
          await post(`${base}/v3/workspaces/${WS}/sessions/http-${client}/messages`, {
            messages: batch.map((m) => ({ peer_id: m.peerId, content: m.content })),
          })
        }
      }),
    )
    httpMs += performance.now() - started
    httpCount += CLIENTS * perClient * BATCH
    started = performance.now()
    await Promise.all(
      work.map(async (batches, client) => {
        for (const batch of batches) await memory.logMessages(`local-${client}`, batch, { workspaceId: WS })
      }),
    )
    localMs += performance.now() - started
    localCount += CLIENTS * perClient * BATCH
  }
  const http = httpCount / (httpMs / 1000)
  const local = localCount / (localMs / 1000)
  return [
    {
      name: 'add messages over HTTP (batches of 50, 4 clients)',
      unit: 'msg/s',
      value: http,
      baseline: local,
      ratio: local / http,
      notes: `${httpCount} messages; baseline: memory.logMessages in-process (4 callers); both count o200k tokens; ratio = cost factor of HTTP`,
    },
  ]
}

/** Bulk-loads the store to `total` messages over 100 sessions (repository batches of 1 000, one transaction each). */
async function load(store: Store, total: number): Promise<void> {
  const have = await store.messages.count(WS)
  const sessions = 100
  let remaining = total - have
  let i = 0
  while (remaining > 0) {
    const size = Math.min(1000, remaining)
    const batch: NewMessage[] = batchOf(size).map((m) => ({ ...m, tokenCount: 12 + Math.floor(rand() * 20) }))
    await store.messages.insertBatch(WS, `ctx-${i % sessions}`, batch)
    remaining -= size
    i += 1
  }
}

async function latencies(
  memory: HyMem,
  base: string,
  total: number,
  samples: number,
): Promise<BenchResult[]> {
  const raw = new Database(memory.database.location, { readonly: true })
  try {
    const newest = raw.prepare(
      'SELECT * FROM messages WHERE workspace_id = ? AND session_id = ? ORDER BY id DESC LIMIT 100',
    )
    const fts = raw.prepare(
      `SELECT m.* FROM messages_fts f JOIN messages m ON m.id = f.rowid
       WHERE messages_fts MATCH ? AND m.workspace_id = ? ORDER BY bm25(messages_fts) LIMIT 10`,
    )
    const queries = Array.from({ length: samples }, () => `${zipfWord()} ${zipfWord()}`)
    const context = await timeEach(samples, async (i) => {
      const res = await request(`${base}/v3/workspaces/${WS}/sessions/ctx-${i % 100}/context?tokens=4000`)
      await res.json()
    })
    const contextRaw = await timeEach(samples, (i) => newest.all(WS, `ctx-${i % 100}`))
    const search = await timeEach(samples, (i) =>
      post(`${base}/v3/workspaces/${WS}/search`, { query: queries[i], limit: 10 }),
    )
    const searchRaw = await timeEach(samples, (i) => fts.all(buildMatchQuery(queries[i]!) ?? '""', WS))
    const row = (
      name: string,
      p: number,
      value: number[],
      baseline: number[],
      notes: string,
    ): BenchResult => ({
      name,
      unit: 'ms',
      value: percentile(value, p),
      baseline: percentile(baseline, p),
      ratio: percentile(value, p) / Math.max(percentile(baseline, p), 1e-6),
      notes,
    })
    const at = `${total / 1000}k messages, ${samples} samples`
    return [
      row('session context p50', 0.5, context, contextRaw, `${at}; baseline: raw SELECT newest 100`),
      row('session context p95', 0.95, context, contextRaw, at),
      row('workspace search p50', 0.5, search, searchRaw, `${at}; baseline: raw FTS5 MATCH + bm25`),
      row('workspace search p95', 0.95, search, searchRaw, at),
    ]
  } finally {
    raw.close()
  }
}

/** The bench entry point (see the file comment). */
export async function run(options: BenchOptions): Promise<BenchResult[]> {
  const total = options.quick ? 10_000 : 100_000
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-honcho-'))
  const store = await openHyMemStore({ root: dir })
  const memory = await createHyMem({
    root: dir,
    store,
    workspaceId: WS,
    llm: null,
    embeddings: null,
    searchLog: false,
  })
  const app = createHonchoApp({ memory, backgroundDreaming: false })
  const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
    (resolve) => {
      const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
        resolve({ server: started, port: info.port }),
      )
    },
  )
  const base = `http://127.0.0.1:${port}`
  try {
    const results = await ingestThroughput(memory, base, options.quick ? 2_000 : 8_000)
    await load(store, total)
    results.push(...(await latencies(memory, base, total, options.quick ? 50 : 100)))
    return results
  } finally {
    await new Promise<void>((resolve) => {
      if ('closeAllConnections' in server) server.closeAllConnections()
      server.close(() => resolve())
    })
    await memory.close()
    await store.close()
    rmSync(dir, { recursive: true, force: true })
  }
}

await runWhenMain(import.meta.url, run)
