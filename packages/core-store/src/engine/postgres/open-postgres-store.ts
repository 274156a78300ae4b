import { Kysely, PostgresDialect } from 'kysely'
import { StoreError } from '../../kernel/errors'
import { randomId } from '../../kernel/ids'
import type { HyMemDatabase } from '../../kernel/tables'
import { _createRepositoryScope, type RepositoryOptions } from '../../repositories/scope'
import type { ScopeWithBuilder } from '../../store/builder'
import { createRepositories } from '../../store/repositories'
import { _applyRepositoryOverrides } from '../../store/repository-overrides'
import type { PostgresStoreInfo, Store, StoreContext, StoreLog, VectorSupport } from '../../store/types'
import { closableDialect, storeClosedError } from '../closable-dialect'
import { mappedDialect } from '../mapped-dialect'
import { bootstrap, checkSchemaName, type ServerFacts } from './bootstrap'
import {
  type PGliteLike,
  type PostgresConnector,
  pgliteConnector,
  type SessionSettings,
  urlConnector,
} from './connection'
import { POSTGRES_ENGINE } from './engine'
import { mapPostgresError } from './errors'
import { createPostgresFullTextSearch } from './full-text'
import { migratePostgres } from './migrate'
import { createPgliteFromUrl, isPgliteUrl, type OwnedPglite } from './pglite-url'
import { POSTGRES_REPOSITORY_OVERRIDES } from './repositories'
import { createPostgresRunLock } from './run-lock'
import { createTermFrequencyCache } from './term-frequency-cache'
import { createPostgresVectorIndex } from './vector-index'

const DEFAULT_STATEMENT_TIMEOUT_MS = 30_000
const DEFAULT_MAX_CONNECTIONS = 10
const DEFAULT_SCHEMA = 'public'

export interface OpenPostgresStoreOptions {
  /**
   * `postgres://user:password@host:5432/database` (or `postgresql://`). Give this or `pglite`. For tests and
   * development, `pglite:///data/dir` (or `pglite:memory`) opens an in-process PGlite the store owns and
   * closes with its last fork.
   */
  readonly url?: string
  /**
   * An in-process PGlite created with the `vector` and `unaccent` extensions (tests, embedded use). It stays
   * the caller's: `close()` does not close it. Every store on one instance shares its single session, so they
   * take turns (a transaction holds it), as stores on one SQLite file do.
   */
  readonly pglite?: PGliteLike
  /** The schema holding HyMem's tables; created when missing. @default the URL's `?schema=`, else 'public' */
  readonly schema?: string
  /** Injected clock; decay, recency and timestamps read it. @default () => new Date() */
  readonly clock?: () => Date
  /** Injected id source for public ids (messages, notes). @default 21-char random ids */
  readonly newId?: () => string
  readonly log?: StoreLog
  /** Every statement is cancelled after this long (`statement_timeout`). @default 30000 */
  readonly statementTimeoutMs?: number
  /** Connections in the pool (a server; PGlite has one). @default 10 */
  readonly maxConnections?: number
}

interface Opened {
  readonly connector: PostgresConnector
  readonly schema: string
  readonly settings: SessionSettings
  readonly facts: ServerFacts
  readonly schemaVersion: number
  readonly context: StoreContext
  readonly maxConnections: number
  readonly log: StoreLog | undefined
  /** A PGlite opened from a `pglite:` URL: closed when the last store on it closes. */
  readonly owned: OwnedInstance | null
}

/** Counts the stores (the first and its forks) on an instance the store created, and closes it after the last. */
interface OwnedInstance {
  retain(): void
  release(): Promise<void>
}

function ownedInstance(pglite: OwnedPglite): OwnedInstance {
  let stores = 0
  return {
    retain: () => {
      stores += 1
    },
    release: async () => {
      stores -= 1
      if (stores === 0) await pglite.close()
    },
  }
}

/**
 * Opens HyMem on PostgreSQL (creating the extensions, schema and tables when needed) and returns the same
 * `Store` as the SQLite backend. A database written by a newer HyMem is refused (`SCHEMA_TOO_NEW`); an
 * unreachable server, refused credentials or a database without pgvector give a one-line `StoreError`.
 *
 * @example
 * const store = await openPostgresStore({ url: 'postgres://hymem:secret@db:5432/hymem' })
 * await store.messages.insertBatch('default', 'session-1', [{ peerId: 'user-alice', content: 'hi' }])
 * await store.close()
 */
export async function openPostgresStore(given: OpenPostgresStoreOptions): Promise<Store> {
  const options = schemaFromUrl(given)
  if (typeof options?.url === 'string' && isPgliteUrl(options.url)) {
    if (options.pglite !== undefined)
      throw new StoreError('INVALID_INPUT', 'openPostgresStore needs exactly one of url and pglite')
    const pglite = await createPgliteFromUrl(options.url)
    const owned = ownedInstance(pglite)
    owned.retain()
    try {
      return await openOn(await pgliteConnector(pglite), options, owned)
    } finally {
      await owned.release()
    }
  }
  return openOn(await connectorOf(options), options, null)
}

/**
 * A `schema` query parameter (`postgres://…/hymem?schema=team_a`) names the schema holding HyMem's tables, so
 * one URL (HYMEM_DATABASE_URL) says where a memory lives when several share a database. It is HyMem's, so it
 * is taken off before the driver sees the URL; an explicit `schema` option wins.
 */
function schemaFromUrl(options: OpenPostgresStoreOptions): OpenPostgresStoreOptions {
  const url = options?.url
  if (typeof url !== 'string') return options
  const query = url.indexOf('?')
  if (query < 0) return options
  const params = new URLSearchParams(url.slice(query + 1))
  const schema = params.get('schema')
  if (schema === null) return options
  params.delete('schema')
  const rest = params.toString()
  return {
    ...options,
    url: rest === '' ? url.slice(0, query) : `${url.slice(0, query)}?${rest}`,
    schema: options.schema ?? schema,
  }
}

async function openOn(
  connector: PostgresConnector,
  options: OpenPostgresStoreOptions,
  owned: OwnedInstance | null,
): Promise<Store> {
  const schema = checkSchemaName(options.schema ?? DEFAULT_SCHEMA)
  const statementTimeoutMs = options.statementTimeoutMs ?? DEFAULT_STATEMENT_TIMEOUT_MS
  if (!Number.isInteger(statementTimeoutMs) || statementTimeoutMs < 1)
    throw new StoreError('INVALID_INPUT', 'statementTimeoutMs must be a positive integer')
  const maxConnections = options.maxConnections ?? DEFAULT_MAX_CONNECTIONS
  if (!Number.isInteger(maxConnections) || maxConnections < 1)
    throw new StoreError('INVALID_INPUT', 'maxConnections must be a positive integer')
  const facts = await bootstrap(connector, schema)
  const settings: SessionSettings = { searchPath: facts.searchPath, statementTimeoutMs }
  const vectors: VectorSupport = { mode: 'pgvector', version: facts.pgvectorVersion, reason: null }
  const clock = options.clock ?? (() => new Date())
  const context: StoreContext = Object.freeze({
    clock,
    now: () => clock().toISOString(),
    newId: options.newId ?? (() => randomId()),
    vectors,
    embeddingMaxScan: 0, // the capped JS scan is SQLite's fallback; pgvector always answers here
  })
  const migrator = connect(connector, settings, 1, connector.location)
  let migration: Awaited<ReturnType<typeof migratePostgres>>
  try {
    migration = await migratePostgres(
      migrator.db as Kysely<unknown>,
      schema,
      facts.searchPath,
      connector.location,
      { onProgress: (progress) => options.log?.({ kind: 'upgrade', ...progress }) },
    )
  } finally {
    await migrator.close()
  }
  const opened: Opened = {
    connector,
    schema,
    settings,
    facts,
    schemaVersion: migration.to,
    context,
    maxConnections,
    log: options.log,
    owned,
  }
  const store = assemble(opened)
  options.log?.({
    kind: 'open',
    path: store.location,
    schemaVersion: migration.to,
    migrated: migration.applied,
    vectors,
  })
  return store
}

async function connectorOf(options: OpenPostgresStoreOptions): Promise<PostgresConnector> {
  if ((options.url === undefined) === (options.pglite === undefined)) {
    throw new StoreError('INVALID_INPUT', 'openPostgresStore needs exactly one of url and pglite')
  }
  if (options.url !== undefined) {
    if (typeof options.url !== 'string') throw new StoreError('INVALID_INPUT', 'url must be a string')
    return urlConnector(options.url)
  }
  return pgliteConnector(options.pglite as PGliteLike)
}

/** A pool of the store's own; after `close()` its queries reject with `StoreError('CLOSED')`. */
/** The most parameters one statement can bind on PostgreSQL's wire protocol. */
const MAX_PARAMETERS = 65_535

function connect(
  connector: PostgresConnector,
  settings: SessionSettings,
  maxConnections: number,
  location: string,
): { db: Kysely<HyMemDatabase>; close(): Promise<void> } {
  const pool = connector.createPool(settings, maxConnections)
  const driver = closableDialect(
    mappedDialect(
      new PostgresDialect({
        pool,
        ...(connector.onReserve ? { onReserveConnection: connector.onReserve(settings) } : {}),
      }),
      {
        mapError: (error) => mapPostgresError(error, connector.location),
        maxParameters: { engine: 'PostgreSQL', limit: MAX_PARAMETERS },
      },
    ),
    location,
  )
  return { db: new Kysely<HyMemDatabase>({ dialect: driver.dialect }), close: driver.close }
}

function assemble(opened: Opened): Store {
  const { connector, schema, settings, facts, context } = opened
  const location = connector.sharedSession
    ? `pglite (schema ${schema})`
    : `${connector.location} (schema ${schema})`
  const { db, close: closeConnections } = connect(connector, settings, opened.maxConnections, location)
  const termFrequencies = createTermFrequencyCache()
  const scope = (executor: Kysely<HyMemDatabase>, inTransaction: boolean): ScopeWithBuilder => {
    const repositoryOptions: RepositoryOptions = { engine: POSTGRES_ENGINE, inTransaction }
    const repositoryScope = _createRepositoryScope(executor, context, repositoryOptions)
    return {
      db: executor,
      ..._applyRepositoryOverrides(
        createRepositories(executor, context, repositoryOptions),
        repositoryScope,
        POSTGRES_REPOSITORY_OVERRIDES,
      ),
      fullText: createPostgresFullTextSearch(executor, termFrequencies),
      vectors: createPostgresVectorIndex(executor, context, repositoryScope),
    }
  }
  const runLock = createPostgresRunLock({ db, connector, schema, clock: context.clock })
  let closed = false
  opened.owned?.retain()

  return {
    ...scope(db, false),
    backend: 'postgres',
    location,
    context,
    transaction: (fn) => {
      if (closed) return Promise.reject(storeClosedError(location))
      return db.transaction().execute((tx) => fn(scope(tx, true)))
    },
    // Only the public StoreRunLock: releaseAll is close()'s, and would drop a running dream's lock.
    runLock: {
      acquire: (name, holderId) => runLock.acquire(name, holderId),
      inspect: (name) => runLock.inspect(name),
    },
    info: (): PostgresStoreInfo => ({
      backend: 'postgres',
      location,
      version: facts.serverVersion,
      serverVersion: facts.serverVersion,
      pgvectorVersion: facts.pgvectorVersion,
      schema,
      schemaVersion: opened.schemaVersion,
      vectors: context.vectors,
    }),
    fork: () => assemble(opened),
    close: async () => {
      if (closed) return
      closed = true
      await runLock.releaseAll()
      await closeConnections()
      await opened.owned?.release()
      opened.log?.({ kind: 'close', path: location })
    },
  }
}
