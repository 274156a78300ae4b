import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { vector } from '@electric-sql/pglite-pgvector'
import pg from 'pg'
import { afterAll, afterEach } from 'vitest'
import { openPostgresStore } from '../src/engine/postgres'
import type { Store } from '../src/store/types'
import type { BackendUnderTest, TestStoreOptions, TestStores } from './backends'

let pglite: Promise<PGlite> | undefined

/** One PGlite (PostgreSQL in WASM, with pgvector and unaccent) per test file, created on first use. */
export function sharedPglite(): Promise<PGlite> {
  pglite ??= PGlite.create({ extensions: { vector, unaccent } })
  return pglite
}

let schemas = 0

/** A schema name no other test (or process) uses. */
export function freshSchema(): string {
  schemas += 1
  return `t${process.pid}_${Date.now().toString(36)}_${schemas}`
}

/**
 * PostgreSQL backends: PGlite in-process always; a real server too when `HYMEM_TEST_DATABASE_URL` is set.
 * Each store opened gets its own schema, dropped after the test. Call at the top level of a test file: the
 * file's PGlite is closed after all its suites.
 */
export function postgresBackends(): PostgresBackendUnderTest[] {
  afterAll(async () => {
    const instance = pglite
    pglite = undefined
    if (instance) await (await instance).close()
  })
  const backends = [postgresBackend('PostgreSQL on PGlite', null)]
  const url = process.env.HYMEM_TEST_DATABASE_URL
  if (url) backends.push(postgresBackend('PostgreSQL server', url))
  return backends
}

export interface PostgresTestStoreOptions extends TestStoreOptions {
  /** Reopen an existing schema (one from `newSchema()` or an earlier store's). @default a fresh one */
  readonly schema?: string
  readonly statementTimeoutMs?: number
  /**
   * Tags the store's server connections, so a test can end its own connections without touching those of
   * test files running beside it on the same server. Server only (PGlite has one session).
   */
  readonly applicationName?: string
}

export interface PostgresTestStores extends TestStores {
  open(options?: PostgresTestStoreOptions): Promise<Store>
  /** A schema name this test owns (dropped after it), for opening several stores on one schema. */
  newSchema(): string
}

export interface PostgresBackendUnderTest extends BackendUnderTest {
  /** The server URL, or null for PGlite. */
  readonly url: string | null
  use(): PostgresTestStores
}

function postgresBackend(label: string, url: string | null): PostgresBackendUnderTest {
  return {
    label,
    url,
    vectorMode: 'pgvector',
    use() {
      const opened: Store[] = []
      const owned: string[] = []
      afterEach(async () => {
        for (const store of opened.splice(0)) await store.close()
        for (const schema of owned.splice(0)) await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)
      })
      const newSchema = () => {
        const schema = freshSchema()
        owned.push(schema)
        return schema
      }
      return {
        newSchema,
        async open({ schema, applicationName, ...options } = {}) {
          const store = await openPostgresStore({
            ...(url === null ? { pglite: await sharedPglite() } : { url: tagged(url, applicationName) }),
            schema: schema ?? newSchema(),
            ...options,
          })
          opened.push(store)
          return store
        },
        async reopen(store, options = {}) {
          return this.open({ ...options, schema: schemaOf(store) })
        },
        async stampSchemaVersion(store, version) {
          await adminQuery(url, `UPDATE ${schemaOf(store)}.schema_version SET version = ${version}`)
        },
      }
    },
  }
}

function tagged(url: string, applicationName: string | undefined): string {
  if (applicationName === undefined) return url
  const parsed = new URL(url)
  parsed.searchParams.set('application_name', applicationName)
  return parsed.toString()
}

function schemaOf(store: Store): string {
  const info = store.info()
  if (info.backend !== 'postgres') throw new Error(`not a PostgreSQL store: ${info.location}`)
  return info.schema
}

/** Runs `sql` on the backend directly (outside any store): a server connection, or the shared PGlite. */
export async function adminQuery(url: string | null, text: string): Promise<unknown[]> {
  if (url === null) return (await (await sharedPglite()).query(text)).rows
  const client = new pg.Client({ connectionString: url })
  await client.connect()
  try {
    return (await client.query(text)).rows
  } finally {
    await client.end()
  }
}
