import type { Store } from '@hymem/core-store'
import { openStore } from '@hymem/core-store'
import { openPostgresStore } from '@hymem/core-store/postgres'
import { createRulesExtractor } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import type { DreamConfig } from '../src/config'
import { dream } from '../src/run/dream'
import { WS } from './harness'

const DAY_MS = 86_400_000
/** PGlite runs PostgreSQL in WASM: its migrations and thousands of inserts take seconds on a busy machine. */
const SLOW_MS = 180_000
const START = Date.parse('2026-03-01T00:00:00.000Z')

/** SQLite in memory and PGlite always; a real PostgreSQL server (a fresh schema) with HYMEM_TEST_DATABASE_URL. */
const server = process.env.HYMEM_TEST_DATABASE_URL
const BACKENDS: { label: string; open: (clock: () => Date) => Promise<Store> }[] = [
  { label: 'SQLite', open: async (clock) => openStore({ path: ':memory:', clock }) },
  { label: 'PGlite', open: (clock) => openPostgresStore({ url: 'pglite:memory', clock }) },
  ...(server
    ? [
        {
          label: 'a PostgreSQL server',
          open: (clock: () => Date) =>
            openPostgresStore({
              url: `${server}?schema=retention_${process.pid}_${Date.now().toString(36)}`,
              clock,
            }),
        },
      ]
    : []),
]

const opened: Store[] = []
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close()
})

describe.each(BACKENDS)('search log and LLM cache retention ($label)', ({ open }) => {
  let now = START
  const day = (n: number) => new Date(START + n * DAY_MS).toISOString()

  async function fresh(): Promise<Store> {
    now = START
    const store = await open(() => new Date(now))
    opened.push(store)
    return store
  }

  /** `perDay` searches and cached answers on each of `days` days from `from`, the clock left at the last. */
  async function fill(store: Store, from: number, days: number, perDay: number): Promise<void> {
    for (let d = from; d < from + days; d++) {
      now = START + d * DAY_MS
      await store.transaction(async (tx) => {
        for (let i = 0; i < perDay; i++) {
          const entry = {
            surface: 'augment',
            query: `q${d}.${i}`,
            candidates: 1,
            hits: 1,
            topScore: 1,
            latencyMs: 2,
          }
          await tx.searchLog.record(WS, entry, day(d))
          const usage = { promptTokens: 1, completionTokens: 1 }
          await tx.llmCache.put(`key-${d}-${i}`, { model: 'm', response: 'r', usage })
        }
      })
    }
  }

  const dreamWith = (store: Store, config: Partial<DreamConfig>) =>
    dream({ store, workspaceId: WS, extractor: createRulesExtractor(), markdown: null, config })

  async function kept(store: Store) {
    const searches = await store.searchLog.list(WS)
    return {
      searches: searches.length,
      oldestSearch: searches.map((s) => s.createdAt).sort()[0],
      cached: await store.llmCache.count(),
    }
  }

  it(
    'trims by age and by rows, and stays within the bounds across dreams',
    async () => {
      const store = await fresh()
      await fill(store, 0, 30, 4)
      const bounds = {
        searchLogRetentionDays: 10,
        searchLogMaxRows: 1000,
        llmCacheRetentionDays: 0,
        llmCacheMaxRows: 25,
      }
      const first = await dreamWith(store, bounds)
      expect(first.counts).toMatchObject({ searchLogTrimmed: 120 - 44, llmCacheTrimmed: 120 - 25 })
      // Day 29 is "now": days 19..29 are within 10 days (the cut-off is 19.0 days, inclusive).
      expect(await kept(store)).toEqual({ searches: 44, oldestSearch: day(19), cached: 25 })

      await fill(store, 30, 5, 4)
      const second = await dreamWith(store, { ...bounds, searchLogMaxRows: 30 })
      expect(second.counts).toMatchObject({ searchLogTrimmed: 44 + 20 - 30, llmCacheTrimmed: 20 })
      expect(await kept(store)).toEqual({ searches: 30, oldestSearch: day(27), cached: 25 })
    },
    SLOW_MS,
  )

  it(
    'keeps everything with 0, and drains more rows than one statement deletes',
    async () => {
      const store = await fresh()
      await fill(store, 0, 1, 2100)
      const unbounded = {
        searchLogRetentionDays: 0,
        searchLogMaxRows: 0,
        llmCacheRetentionDays: 0,
        llmCacheMaxRows: 0,
      }
      const kept0 = await dreamWith(store, unbounded)
      expect(kept0.counts.searchLogTrimmed).toBeUndefined()
      expect(await kept(store)).toMatchObject({ searches: 2100, cached: 2100 })

      const report = await dreamWith(store, { ...unbounded, searchLogMaxRows: 10, llmCacheMaxRows: 5 })
      expect(report.counts).toMatchObject({ searchLogTrimmed: 2090, llmCacheTrimmed: 2095 })
      expect(await kept(store)).toMatchObject({ searches: 10, cached: 5 })
    },
    SLOW_MS,
  )
})
