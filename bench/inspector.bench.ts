/**
 * The memory inspector's Graph view at 100k messages / 20k edges: time to first render in Chromium
 * (navigation start → cytoscape's first frame, a cold browser cache each round), at the default cap of 200
 * edges and at the largest cap (2,000), and the server's time to answer the page next to the raw SQLite
 * queries it wraps (the top edges by confidence and their count).
 *
 * Needs Debian's Chromium (`apt-get install -y chromium`); it never downloads a browser.
 *
 *   pnpm exec tsx --conditions=@hymem/source bench/inspector.bench.ts [--quick]
 */
import { existsSync, mkdtempSync, rmSync } from 'node:fs'
import type { AddressInfo } from 'node:net'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { serve } from '@hono/node-server'
import { openStore } from '@hymem/core-store'
import { registerFullTextFunctions } from '@hymem/core-store/sqlite'
import { createInspectorApp } from '@hymem/inspector'
import Database from 'better-sqlite3'
import { createHyMem } from 'hymem'
import { chromium } from 'playwright-core'
// The inspector's own bundler (the bench is not published; tests build the bundles the same way).
import { ensureClientBuilt } from '../packages/inspector/build-client'
import { runWhenMain } from './results-table'
import { prng, pseudoWords, sentenceMaker, zipfPicker } from './synthetic'
import type { BenchOptions, BenchResult } from './types'

const WS = 'bench'
const CHROMIUM = '/usr/bin/chromium'
const NOW = new Date('2026-06-01T00:00:00.000Z')
const PREDICATES = ['uses', 'depends_on', 'prefers', 'avoids', 'replaces', 'deploys_to', 'part_of', 'runs_on']
const TYPES = ['service', 'database', 'tool', 'person', 'library', 'team', 'platform', 'language']

const rand = prng(7)
const WORDS = pseudoWords(5000)
const sentence = sentenceMaker(zipfPicker(WORDS, rand), rand)
const pick = <T>(list: readonly T[]): T => list[Math.floor(rand() * list.length)]!
const iso = (daysAgo: number) => new Date(NOW.getTime() - daysAgo * 86_400_000).toISOString()

/** Messages, chunks (one per 4 messages), edges over ~3k entities with evidence, and entity types, in raw SQL. */
function populate(path: string, messages: number, edges: number): void {
  const db = new Database(path)
  registerFullTextFunctions(db)
  db.pragma('journal_mode = WAL')
  db.pragma('synchronous = OFF')
  const entities = Array.from({ length: 3000 }, (_, i) => `${WORDS[i % 900]}_${i}`)
  db.transaction(() => {
    db.prepare('INSERT INTO workspaces (id, created_at) VALUES (?, ?)').run(WS, iso(400))
    const peer = db.prepare('INSERT INTO peers (workspace_id, id, role, created_at) VALUES (?, ?, ?, ?)')
    for (const p of ['maya', 'bob', 'assistant'])
      peer.run(WS, p, p === 'assistant' ? 'assistant' : 'user', iso(400))
    const session = db.prepare(
      'INSERT INTO sessions (workspace_id, id, started_at, created_at) VALUES (?, ?, ?, ?)',
    )
    const message = db.prepare(
      'INSERT INTO messages (id, public_id, workspace_id, session_id, peer_id, role, content, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?)',
    )
    const chunk = db.prepare(
      'INSERT INTO chunks (id, workspace_id, session_id, text, salience_reason, message_ids, first_message_id, last_message_id, occurred_at, created_at) VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?)',
    )
    let texts: string[] = []
    for (let id = 1; id <= messages; id++) {
      const s = Math.floor((id - 1) / 50)
      if ((id - 1) % 50 === 0) session.run(WS, `s${s}`, iso(365), iso(365))
      const user = id % 2 === 1
      const text = sentence()
      const at = iso(365 - (id / messages) * 365)
      message.run(
        id,
        `m${id}`,
        WS,
        `s${s}`,
        user ? pick(['maya', 'bob']) : 'assistant',
        user ? 'user' : 'assistant',
        text,
        at,
      )
      texts.push(text)
      if (id % 4 === 0) {
        chunk.run(
          id / 4,
          WS,
          `s${s}`,
          texts.join(' '),
          'bench',
          JSON.stringify([id - 3, id - 2, id - 1, id]),
          id - 3,
          id,
          at,
          at,
        )
        texts = []
      }
    }
    const edge = db.prepare(
      `INSERT OR IGNORE INTO knowledge_graph (id, workspace_id, subject, predicate, object, pos_evidence, neg_evidence,
        confidence, status, derived, first_seen, last_seen, last_reinforced, valid_from, valid_to)
        VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)`,
    )
    const evidence = db.prepare(
      'INSERT INTO kg_evidence (workspace_id, edge_id, chunk_id, message_ids, polarity, evidence_text, observed_at, created_at) VALUES (?, ?, ?, ?, 1, ?, ?, ?)',
    )
    const chunks = Math.floor(messages / 4)
    for (let id = 1; id <= edges; id++) {
      const pos = 1 + Math.floor(rand() * 5)
      const neg = rand() < 0.2 ? 1 + Math.floor(rand() * 2) : 0
      const seen = rand() * 365
      const fate = rand()
      const added = edge.run(
        id,
        WS,
        entities[Math.floor(entities.length * rand() ** 2)],
        pick(PREDICATES),
        pick(entities),
        pos,
        neg,
        (pos + 1) / (pos + neg + 2),
        fate < 0.05 ? 'retracted' : 'active',
        fate > 0.9 && fate <= 0.95 ? 1 : 0,
        iso(seen + 10),
        iso(seen),
        iso(seen),
        iso(seen + 10),
        fate > 0.95 ? iso(seen / 2) : null,
      )
      if (added.changes === 0) continue
      const chunkId = 1 + Math.floor(rand() * chunks)
      evidence.run(WS, id, chunkId, JSON.stringify([chunkId * 4]), sentence(), iso(seen), iso(seen))
    }
    const type = db.prepare(
      'INSERT INTO entity_types (workspace_id, entity, type, evidence, updated_at) VALUES (?, ?, ?, 1, ?)',
    )
    for (const e of entities.slice(0, 2000)) type.run(WS, e, pick(TYPES), iso(1))
  })()
  db.close()
}

const median = (values: readonly number[]) =>
  [...values].sort((a, b) => a - b)[Math.floor(values.length / 2)]!

async function measure(messages: number, edges: number, rounds: number): Promise<BenchResult[]> {
  if (!existsSync(CHROMIUM))
    throw new Error(`Chromium is missing at ${CHROMIUM}: apt-get install -y chromium`)
  await ensureClientBuilt()
  const dir = mkdtempSync(join(tmpdir(), 'hymem-bench-inspector-'))
  const path = join(dir, 'hymem.sqlite')
  try {
    openStore({ path }).close()
    const seeded = performance.now()
    populate(path, messages, edges)
    const seedSeconds = (performance.now() - seeded) / 1000
    const memory = await createHyMem({ root: dir, databasePath: path, workspaceId: WS, clock: () => NOW })
    const app = createInspectorApp({ memory })
    const { server, port } = await new Promise<{ server: ReturnType<typeof serve>; port: number }>(
      (resolve) => {
        const started = serve({ fetch: app.fetch, hostname: '127.0.0.1', port: 0 }, (info: AddressInfo) =>
          resolve({ server: started, port: info.port }),
        )
      },
    )
    const origin = `http://127.0.0.1:${port}`
    const raw = new Database(path, { readonly: true })
    const rawTop = raw.prepare(
      `SELECT * FROM knowledge_graph WHERE workspace_id = ? AND status = 'active' AND valid_to IS NULL
       ORDER BY confidence DESC, pos_evidence DESC, id LIMIT ?`,
    )
    const rawCount = raw.prepare(
      `SELECT count(*) AS n FROM knowledge_graph WHERE workspace_id = ? AND status = 'active' AND valid_to IS NULL`,
    )
    const browser = await chromium.launch({
      executablePath: CHROMIUM,
      args: [
        '--no-sandbox',
        '--headless',
        '--disable-gpu',
        '--disable-background-networking',
        '--disable-component-update',
        '--disable-sync',
        '--no-first-run',
      ],
    })
    try {
      const results: BenchResult[] = []
      for (const limit of [200, 2000]) {
        const url = `${origin}/inspect/w/${WS}/graph${limit === 200 ? '' : `?limit=${limit}`}`
        const serverMs: number[] = []
        const rawMs: number[] = []
        const renderMs: number[] = []
        const layoutMs: number[] = []
        let bytes = 0
        await (await fetch(url)).text() // warm the statement caches
        for (let round = 0; round < rounds; round++) {
          let started = performance.now()
          bytes = (await (await fetch(url)).arrayBuffer()).byteLength
          serverMs.push(performance.now() - started)
          started = performance.now()
          rawTop.all(WS, limit)
          rawCount.get(WS)
          rawMs.push(performance.now() - started)
          const context = await browser.newContext({ viewport: { width: 1280, height: 860 } })
          const page = await context.newPage()
          await page.goto(url)
          await page.waitForSelector('#graph[data-state="rendered"]', { timeout: 120_000 })
          // One expression: tsx would wrap a named inner function in a helper the page does not have.
          const marks = await page.evaluate(() =>
            ['hymem:graph-rendered', 'hymem:graph-layout-start', 'hymem:graph-layout-end'].map(
              (name) => performance.getEntriesByName(name)[0]!.startTime,
            ),
          )
          renderMs.push(marks[0]!)
          layoutMs.push(marks[2]! - marks[1]!)
          await context.close()
        }
        const server = median(serverMs)
        const base = median(rawMs)
        const scale = `${messages / 1000}k messages / ${edges / 1000}k edges`
        results.push({
          name: `graph view first render, ${limit} edges drawn`,
          unit: 'ms',
          value: median(renderMs),
          notes: `Chromium, cold cache, navigation → first frame (layout ${Math.round(median(layoutMs))} ms); ${scale}; median of ${rounds}`,
        })
        results.push({
          name: `graph page served, ${limit} edges`,
          unit: 'ms',
          value: server,
          baseline: base,
          ratio: server / base,
          notes: `${Math.round(bytes / 1024)} KB of HTML; baseline: raw top-${limit} + count queries`,
        })
      }
      results.push({
        name: 'seed (raw SQL)',
        unit: 's',
        value: seedSeconds,
        notes: 'not part of the measure',
      })
      return results
    } finally {
      await browser.close()
      raw.close()
      if ('closeAllConnections' in server) server.closeAllConnections()
      await new Promise<void>((resolve) => server.close(() => resolve()))
      await memory.close()
    }
  } finally {
    rmSync(dir, { recursive: true, force: true })
  }
}

export async function run(options: BenchOptions): Promise<BenchResult[]> {
  return options.quick ? measure(20_000, 4_000, 2) : measure(100_000, 20_000, 5)
}

await runWhenMain(import.meta.url, run)
