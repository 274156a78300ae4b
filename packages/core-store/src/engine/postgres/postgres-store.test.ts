import fc from 'fast-check'
import { type Kysely, sql } from 'kysely'
import { describe, expect, it } from 'vitest'
import { addChunk } from '../../../test/fixtures'
import {
  adminQuery,
  type PostgresTestStoreOptions,
  postgresBackends,
  sharedPglite,
} from '../../../test/postgres-backends'
import { expectStoreError } from '../../../test/store-harness'
import { builderOf } from '../../store/builder'
import type { PostgresStoreInfo, Store, StoreLogEvent } from '../../store/types'
import { MIGRATIONS, SCHEMA_VERSION } from '../sqlite/schema/migrations'
import { migratePostgres } from './migrate'
import { openPostgresStore } from './open-postgres-store'
import { POSTGRES_MIGRATIONS } from './schema/migrations'
import { buildTsquery } from './tsquery'

const HOSTILE_FRAGMENTS = [
  "'",
  "''",
  '"',
  '\\',
  '&',
  '|',
  '!',
  '<->',
  '<2>',
  ':*',
  ':A',
  '(',
  ')',
  '*',
  '-',
  'NEAR(',
  'AND',
  'OR',
  'NOT',
  ' ',
  '\t',
  '\n',
  '\u0000',
  '\u001f',
  '😀',
  '🙂',
  '中文',
  'é',
  'e\u0301',
  '\u0301',
  '\ud800',
  'ß',
  'x',
  'the',
  'redis',
  '42',
  '%',
  '_',
  '\u200b',
  "o'clock",
  'don\\t',
]
const LONE_SURROGATE = /[\ud800-\udbff](?![\udc00-\udfff])|(?<![\ud800-\udbff])[\udc00-\udfff]/g
const hostileText = fc.oneof(
  fc.string(),
  fc.string({ unit: 'binary' }),
  fc.string({ unit: fc.integer({ min: 0, max: 0xffff }).map((c) => String.fromCharCode(c)) }),
  fc.array(fc.constantFrom(...HOSTILE_FRAGMENTS), { maxLength: 30 }).map((parts) => parts.join('')),
)

describe('POSTGRES_MIGRATIONS', () => {
  it('keeps the versions and names of the SQLite migrations, one for one', () => {
    expect(POSTGRES_MIGRATIONS.map((m) => [m.version, m.name])).toEqual(
      MIGRATIONS.map((m) => [m.version, m.name]),
    )
  })
})

describe('openPostgresStore input', () => {
  it('refuses a bad URL, both or neither of url and pglite, and a schema name that needs quoting', async () => {
    await expectStoreError(openPostgresStore({}), 'INVALID_INPUT')
    await expectStoreError(openPostgresStore({ url: 'mysql://x@y/z' }), 'INVALID_INPUT')
    await expectStoreError(openPostgresStore({ url: 'not a url' }), 'INVALID_INPUT')
    const error = await expectStoreError(
      openPostgresStore({ url: 'postgres://u:p@127.0.0.1:1/db', schema: 'Bad-Name' }),
      'INVALID_INPUT',
    )
    expect(error.message).toMatch(/schema must be a plain lower-case identifier/)
  })

  it('says in one line, without the password, that an unreachable server cannot be reached', async () => {
    const error = await expectStoreError(
      openPostgresStore({ url: 'postgres://hymem:secret@127.0.0.1:1/hymem' }),
      'UNREACHABLE',
    )
    expect(error.message).toMatch(
      /^cannot reach PostgreSQL at postgres:\/\/hymem@127\.0\.0\.1:1\/hymem \(ECONNREFUSED\)/,
    )
    expect(error.message).not.toContain('secret')
    expect(error.message).not.toContain('\n')
  })
})

for (const backend of postgresBackends()) {
  describe(`PostgreSQL store: ${backend.label}`, () => {
    const stores = backend.use()

    it('migrates a new schema once, reports the backend, and reopens without migrating', async () => {
      const schema = stores.newSchema()
      const events: StoreLogEvent[] = []
      const store = await stores.open({ schema })
      const info = store.info()
      expect(info).toMatchObject({ backend: 'postgres', schema, schemaVersion: SCHEMA_VERSION })
      expect(info.backend === 'postgres' && info.pgvectorVersion).toMatch(/^\d+\.\d+\.\d+$/)
      expect(info.version).toMatch(/^\d+/)
      expect(store.location).toContain(`schema ${schema}`)
      expect(store.backend).toBe('postgres')
      const again = await openPostgresStore({
        ...(backend.url === null ? { pglite: await sharedPglite() } : { url: backend.url }),
        schema,
        log: (event) => events.push(event),
      })
      await again.close()
      expect(events[0]).toMatchObject({ kind: 'open', schemaVersion: SCHEMA_VERSION, migrated: [] })
    })

    it('migration 8 reindexes the rows a version-7 schema holds, a table a step, reporting progress', async () => {
      const store = await stores.open()
      const schema = stores.newSchema()
      await migratePostgres(
        builderOf(store) as unknown as Kysely<unknown>,
        schema,
        [schema, 'public'],
        'test',
        {
          migrations: POSTGRES_MIGRATIONS.filter((migration) => migration.version <= 7),
        },
      )
      const at = '2026-01-05T00:00:00.000Z'
      for (const statement of [
        `INSERT INTO ${schema}.workspaces (id, created_at) VALUES ('w', '${at}')`,
        `INSERT INTO ${schema}.sessions (workspace_id, id, started_at, created_at) VALUES ('w', 's', '${at}', '${at}')`,
        `INSERT INTO ${schema}.messages (public_id, workspace_id, session_id, peer_id, role, content, created_at)
           SELECT 'm' || i, 'w', 's', 'u', 'user',
             CASE WHEN i = 1 THEN '我们的后端服务部署在阿里云上' ELSE 'note ' || i || ' about the staging replicas' END, '${at}'
           FROM generate_series(1, 300) AS i`,
      ])
        await adminQuery(backend.url, statement)
      const events: StoreLogEvent[] = []
      const upgraded = await openPostgresStore({
        ...(backend.url === null ? { pglite: await sharedPglite() } : { url: backend.url }),
        schema,
        log: (event) => events.push(event),
      })
      try {
        const upgrades = events.filter((event) => event.kind === 'upgrade')
        expect(upgrades[0]).toEqual({
          kind: 'upgrade',
          migration: '8-full-text-every-script',
          table: 'messages',
          done: 0,
          total: 300,
        })
        expect(upgrades.at(-1)).toMatchObject({ done: 300, total: 300 })
        expect(upgrades.map((event) => event.kind === 'upgrade' && event.table)).toContain('notes')
        const hits = await upgraded.fullText.search('messages', '阿里云', { workspaceId: 'w', limit: 5 })
        expect(hits.map((hit) => hit.id)).toEqual([1])
      } finally {
        await upgraded.close()
      }
    })

    it('migrates a new schema once when several servers open it at the same time', async () => {
      const schema = stores.newSchema()
      const opened = await Promise.all([
        stores.open({ schema }),
        stores.open({ schema }),
        stores.open({ schema }),
      ])
      const versions = await adminQuery(backend.url, `SELECT version FROM ${schema}.schema_version`)
      expect(versions).toEqual([{ version: SCHEMA_VERSION }])
      expect(opened.map((store) => store.info().schemaVersion)).toEqual([
        SCHEMA_VERSION,
        SCHEMA_VERSION,
        SCHEMA_VERSION,
      ])
    })

    it('a failed migration rolls back whole and leaves the schema at its last good version', async () => {
      const store = await stores.open()
      const { schema } = store.info() as PostgresStoreInfo
      const broken = [
        ...POSTGRES_MIGRATIONS,
        {
          version: SCHEMA_VERSION + 1,
          name: 'broken',
          sql: 'CREATE TABLE half_done (id int); CREATE TABLE oops (',
        },
      ]
      const error = await expectStoreError(
        migratePostgres(builderOf(store) as unknown as Kysely<unknown>, schema, [schema, 'public'], 'test', {
          migrations: broken,
        }),
        'MIGRATION_FAILED',
      )
      expect(error.message).toContain(`migration ${SCHEMA_VERSION + 1}-broken failed`)
      expect(error.message).toContain(`left at version ${SCHEMA_VERSION}`)
      expect(await adminQuery(backend.url, `SELECT to_regclass('${schema}.half_done') AS t`)).toEqual([
        { t: null },
      ])
    })

    it('full-text search never fails on hostile text, and finds a document made of the query text', async () => {
      const store = await stores.open()
      await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'background words only' }])
      await fc.assert(
        fc.asyncProperty(hostileText, fc.boolean(), fc.boolean(), async (text, all, prefix) => {
          const query = {
            workspaceId: 'w',
            limit: 5,
            match: all ? 'all' : 'any',
            prefixLastWord: prefix,
          } as const
          await store.fullText.search('messages', text, query)
        }),
        { numRuns: 150 },
      )
      // Documents and queries split into the same words wherever both tokenizers agree: everything but a few
      // non-ASCII characters PostgreSQL's parser keeps inside words and SQLite's unicode61 does not (letter-like
      // symbols such as Ⓐ, zero-width spaces).
      const agreedFragments = HOSTILE_FRAGMENTS.filter((fragment) => fragment !== '\u200b')
      const agreedText = fc.oneof(
        fc.string(),
        fc.array(fc.constantFrom(...agreedFragments), { maxLength: 30 }).map((parts) => parts.join('')),
      )
      await fc.assert(
        fc.asyncProperty(agreedText, async (text) => {
          // PostgreSQL text holds no NUL, and PGlite's bridge rejects lone surrogates (a server replaces them).
          const clean = text.replaceAll('\u0000', ' ').replaceAll(LONE_SURROGATE, ' ')
          const [message] = await store.messages.insertBatch('w', 'own', [{ peerId: 'u', content: clean }])
          const hits = await store.fullText.search('messages', clean, {
            workspaceId: 'w',
            limit: 500,
            match: 'all',
          })
          const lexemes = await sql<{ n: number }>`SELECT numnode(to_tsquery('hymem_english',
            ${buildTsquery(clean, { mode: 'and' }) ?? ''})) AS n`.execute(builderOf(store))
          if ((lexemes.rows[0]?.n ?? 0) > 0)
            expect(
              hits.map((h) => h.id),
              JSON.stringify(clean),
            ).toContain(message?.id)
        }),
        { numRuns: 60 },
      )
    })

    it('keeps workspaces apart in full-text search and scores hits relative to the best, in (0, 1]', async () => {
      const store = await stores.open()
      await store.messages.insertBatch('a', 's', [
        { peerId: 'u', content: 'deploy the deploy pipeline: deploy, deploy' },
        {
          peerId: 'u',
          content: 'we deploy on fridays, and review the release notes and the changelog first',
        },
      ])
      await store.messages.insertBatch('b', 's', [
        { peerId: 'u', content: 'deploy deploy deploy deploy deploy' },
      ])
      const hits = await store.fullText.search('messages', 'deploying', { workspaceId: 'a', limit: 10 })
      expect(hits).toHaveLength(2)
      expect(hits[0]!.score).toBe(1)
      expect(hits[1]!.score > 0 && hits[1]!.score < 1).toBe(true)
      const prefix = await store.fullText.search('messages', 'changel', {
        workspaceId: 'a',
        limit: 10,
        prefixLastWord: true,
      })
      expect(prefix).toHaveLength(1)
      expect(await store.fullText.search('messages', 'the', { workspaceId: 'a', limit: 10 })).toHaveLength(2)
      expect(await store.fullText.search('messages', 'fridays', { workspaceId: 'b', limit: 10 })).toEqual([])
      expect(
        await store.fullText.search('messages', 'the deploy', {
          workspaceId: 'a',
          limit: 10,
          skipCommonWords: true,
          match: 'all',
        }),
      ).toHaveLength(2)
    })

    it('searches vectors wider than HNSW indexes (2,000 dimensions) exactly, without an index', async () => {
      const store = await stores.open()
      const wide = (hot: number) => Float32Array.from({ length: 3072 }, (_, i) => (i === hot ? 1 : 0.01))
      const a = await addChunk(store, 'w', 'a')
      const b = await addChunk(store, 'w', 'b')
      await store.vectors.upsert(
        'chunks',
        [
          { id: a, workspaceId: 'w', vector: wide(0), textHash: 'a' },
          { id: b, workspaceId: 'w', vector: wide(1), textHash: 'b' },
        ],
        'wide-model',
      )
      const hits = await store.vectors.nearest('chunks', wide(1), {
        workspaceId: 'w',
        k: 2,
        model: 'wide-model',
      })
      expect(hits.map((hit) => hit.id)).toEqual([b, a])
      expect(
        await adminQuery(
          backend.url,
          `SELECT to_regclass('${(store.info() as PostgresStoreInfo).schema}.chunk_embeddings_hnsw') AS i`,
        ),
      ).toEqual([{ i: null }])
    })

    it('closing a store releases the dream locks it holds', async () => {
      const schema = stores.newSchema()
      const holder = await stores.open({ schema })
      const contender = await stores.open({ schema })
      expect((await holder.runLock.acquire('dream:w', 'a')).acquired).toBe(true)
      expect((await contender.runLock.acquire('dream:w', 'b')).acquired).toBe(false)
      await holder.close()
      expect((await contender.runLock.acquire('dream:w', 'b')).acquired).toBe(true)
    })

    if (backend.url !== null) describeServerOnly(backend.url, stores.open)
  })
}

/** What only a real server shows: a dying connection, the statement timeout, refused logins. */
function describeServerOnly(url: string, open: (options?: PostgresTestStoreOptions) => Promise<Store>) {
  // Other test files use the same server at the same time: a test that ends connections ends only its own.
  let tags = 0
  const ownConnections = () => {
    tags += 1
    return `hymem-test-${process.pid}-${tags}`
  }

  it('a holder whose connection dies loses the lock at once, and the next holder takes over', async () => {
    const applicationName = ownConnections()
    const store = await open({ applicationName })
    const fork = store.fork()
    try {
      const first = await store.runLock.acquire('dream:w', 'crashed')
      expect(first.acquired).toBe(true)
      const terminated = await adminQuery(
        url,
        `SELECT pg_terminate_backend(l.pid) FROM pg_locks l JOIN pg_stat_activity a ON a.pid = l.pid
         WHERE l.locktype = 'advisory' AND l.classid = ${0x48794d65} AND a.application_name = '${applicationName}'`,
      )
      expect(terminated.length).toBeGreaterThan(0)
      await expect.poll(() => fork.runLock.inspect('dream:w'), { timeout: 5000 }).toBeNull()
      const next = await fork.runLock.acquire('dream:w', 'next')
      expect(next).toMatchObject({
        acquired: true,
        lock: { tookOver: { reason: 'dead-process', previous: { holder: 'crashed' } } },
      })
      if (first.acquired) expect(await first.lock.heartbeat()).toBe(false)
    } finally {
      await fork.close()
    }
  })

  it('survives the server dropping its connections: a clear error at most, then it reconnects', async () => {
    const applicationName = ownConnections()
    const store = await open({ applicationName })
    await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'before the restart' }])
    const terminated = await adminQuery(
      url,
      `SELECT pg_terminate_backend(pid) FROM pg_stat_activity
       WHERE application_name = '${applicationName}' AND datname = current_database()`,
    )
    expect(terminated.length).toBeGreaterThan(0)
    const first = await store.messages.count('w').catch((error: unknown) => error)
    if (first !== 1) expect(first).toMatchObject({ name: 'StoreError', code: 'UNREACHABLE' })
    await expect.poll(() => store.messages.count('w').catch(() => -1), { timeout: 5000 }).toBe(1)
  })

  it('cancels a statement past the timeout with a one-line TIMEOUT error', async () => {
    const store = await open({ statementTimeoutMs: 100 })
    const error = await expectStoreError(sql`SELECT pg_sleep(2)`.execute(builderOf(store)), 'TIMEOUT')
    expect(error.message).toMatch(/statement timeout/)
    expect(await store.messages.count('w')).toBe(0)
  })

  it('names refused credentials and a missing database in one line', async () => {
    const parsed = new URL(url)
    parsed.username = 'nobody'
    const auth = await expectStoreError(openPostgresStore({ url: parsed.toString() }), 'AUTH_FAILED')
    expect(auth.message).toMatch(
      /refused the credentials .*check the user and password in HYMEM_DATABASE_URL$/,
    )
    const missing = new URL(url)
    missing.pathname = '/no_such_database'
    const notFound = await expectStoreError(openPostgresStore({ url: missing.toString() }), 'NOT_FOUND')
    expect(notFound.message).toMatch(/database "no_such_database" does not exist/)
  })

  it('names CREATE EXTENSION vector for a database without pgvector that HyMem may not create it in', async () => {
    await adminQuery(url, 'DROP DATABASE IF EXISTS hymem_novector')
    await adminQuery(
      url,
      `DO $$ BEGIN CREATE ROLE hymem_limited LOGIN; EXCEPTION WHEN duplicate_object THEN NULL; END $$`,
    )
    await adminQuery(url, 'CREATE DATABASE hymem_novector OWNER hymem_limited')
    try {
      const limited = new URL(url)
      limited.username = 'hymem_limited'
      limited.password = ''
      limited.pathname = '/hymem_novector'
      const error = await expectStoreError(
        openPostgresStore({ url: limited.toString() }),
        'MISSING_DEPENDENCY',
      )
      expect(error.message).toMatch(
        /has no pgvector .*run CREATE EXTENSION vector; in this database as a superuser/,
      )
      expect(error.message).not.toContain('\n')
    } finally {
      await adminQuery(url, 'DROP DATABASE IF EXISTS hymem_novector')
    }
  })
}
