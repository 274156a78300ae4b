import { existsSync, readFileSync } from 'node:fs'
import { join } from 'node:path'
import type { Store } from '@hymem/core-store'
import { openPostgresStore } from '@hymem/core-store/postgres'
import { createRulesExtractor } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { renderManagedMarkdown } from '../src/managed-markdown'
import { dream } from '../src/run/dream'
import {
  conversation,
  graphSnapshot,
  logLines,
  openTestStore,
  type TestStore,
  tableCounts,
  WS,
} from './harness'

const SESSION = conversation('2026-02-20T09:00:00.000Z', [
  ['user', 'We use Postgres for the billing service.'],
  ['assistant', 'Got it, Postgres for billing.'],
  ['user', 'The api depends on redis. The worker depends on redis too.'],
  ['user', 'I prefer tabs over spaces. Please be concise.'],
  ['user', 'To deploy: first run the tests, then build the image, finally push to fly.'],
  ['user', 'Actually we moved billing from Postgres to CockroachDB.'],
])

const opened: { close(): Promise<void> }[] = []
afterEach(async () => {
  for (const store of opened.splice(0)) await store.close()
})

/** PostgreSQL on PGlite always; on the real server too (a fresh schema) with HYMEM_TEST_DATABASE_URL. */
const server = process.env.HYMEM_TEST_DATABASE_URL
const BACKENDS = [
  { label: 'PGlite', url: () => 'pglite:memory' },
  ...(server
    ? [
        {
          label: 'a PostgreSQL server',
          url: () => `${server}?schema=dream_${process.pid}_${Date.now().toString(36)}`,
        },
      ]
    : []),
]

async function dreamed(store: Store, markdown: TestStore['markdown'] | null) {
  await logLines(store, 's1', SESSION)
  const report = await dream({ store, workspaceId: WS, extractor: createRulesExtractor(), markdown })
  expect(report).toMatchObject({ status: 'ok', errors: [] })
  return {
    graph: await graphSnapshot(store),
    counts: await tableCounts(store),
    markdown: await renderManagedMarkdown(store, WS),
  }
}

describe.each(BACKENDS)('a dream on PostgreSQL ($label)', ({ url }) => {
  it('builds the same graph, rows and USER.md / MEMORY.md as on SQLite, writing no file without paths', async () => {
    const sqlite = openTestStore('2026-03-01T12:00:00.000Z')
    opened.push({ close: sqlite.cleanup })
    const onSqlite = await dreamed(sqlite.store, sqlite.markdown)
    expect(onSqlite.counts.edges).toBeGreaterThan(3)
    expect(readFileSync(sqlite.markdown.userMdPath, 'utf8')).toBe(onSqlite.markdown.userMd)
    expect(readFileSync(sqlite.markdown.memoryMdPath, 'utf8')).toBe(onSqlite.markdown.memoryMd)

    const now = new Date('2026-03-01T12:00:00.000Z')
    const postgres = await openPostgresStore({ url: url(), clock: () => now })
    opened.push(postgres)
    const onPostgres = await dreamed(postgres, null)
    expect(onPostgres).toEqual(onSqlite)
    expect(existsSync(join(sqlite.dir, 'USER.md'))).toBe(true)

    const again = await dream({
      store: postgres,
      workspaceId: WS,
      extractor: createRulesExtractor(),
      markdown: null,
    })
    expect(again.status).toBe('ok')
    expect(await graphSnapshot(postgres)).toEqual(onSqlite.graph)
  })
})
