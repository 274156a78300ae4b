import { PGlite } from '@electric-sql/pglite'
import { unaccent } from '@electric-sql/pglite/contrib/unaccent'
import { vector } from '@electric-sql/pglite-pgvector'
import pg from 'pg'
import { afterAll, afterEach } from 'vitest'
import { openPostgresStore } from '../src/postgres'
import type { Store, VectorSupport } from '../src/store/types'
import { useTempStores } from './store-harness'

/** What a backend-neutral suite may ask of a fresh store. */
export interface TestStoreOptions {
  readonly clock?: () => Date
  readonly newId?: () => string
}

/** Fresh, empty stores for each test; every store opened is closed (and its data dropped) after the test. */
export interface TestStores {
  open(options?: TestStoreOptions): Promise<Store>
}

/** One backend a contract suite runs on. */
export interface BackendUnderTest {
  readonly label: string
  readonly vectorMode: VectorSupport['mode']
  /** Registers the suite's hooks; call inside its `describe`. */
  use(): TestStores
}

export function sqliteBackend(options: { loadVectorExtension: boolean }): BackendUnderTest {
  return {
    label: options.loadVectorExtension ? 'SQLite with sqlite-vec' : 'SQLite with the JS cosine scan',
    vectorMode: options.loadVectorExtension ? 'sqlite-vec' : 'js-scan',
    use() {
      const stores = useTempStores()
      return {
        open: async (extra = {}) =>
          stores.open({ ...extra, loadVectorExtension: options.loadVectorExtension }),
      }
    },
  }
}

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
 * Each test gets its own schema, dropped afterwards.
 */
export function postgresBackends(): BackendUnderTest[] {
  const backends = [postgresBackend('PostgreSQL on PGlite', null)]
  const url = process.env.HYMEM_TEST_DATABASE_URL
  if (url) backends.push(postgresBackend('PostgreSQL server', url))
  return backends
}

export function postgresBackend(label: string, url: string | null): BackendUnderTest {
  return {
    label,
    vectorMode: 'pgvector',
    use() {
      const opened: Store[] = []
      const dropped: string[] = []
      afterEach(async () => {
        for (const store of opened.splice(0)) await store.close()
        for (const schema of dropped.splice(0)) await dropSchema(url, schema)
      })
      if (url === null) afterAll(async () => (await sharedPglite()).close())
      return {
        async open(options = {}) {
          const schema = freshSchema()
          dropped.push(schema)
          const store = await openPostgresStore({
            ...(url === null ? { pglite: await sharedPglite() } : { url }),
            schema,
            ...options,
          })
          opened.push(store)
          return store
        },
      }
    },
  }
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

async function dropSchema(url: string | null, schema: string): Promise<void> {
  await adminQuery(url, `DROP SCHEMA IF EXISTS ${schema} CASCADE`)
}
