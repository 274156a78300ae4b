import { CompiledQuery, type DatabaseConnection } from 'kysely'
import pg from 'pg'
import { StoreError } from '../../kernel/errors'
import { HYMEM_TYPE_PARSERS } from './type-parsers'

/**
 * The part of a PGlite instance HyMem relies on (it is handed to PGlite's own node-postgres bridge). Create it
 * with the `vector` and `unaccent` extensions:
 * `PGlite.create({ extensions: { vector, unaccent } })`.
 */
export interface PGliteLike {
  readonly waitReady: Promise<void>
  query(sql: string, params?: unknown[]): Promise<unknown>
}

/** Per-connection settings, applied when a connection starts. */
export interface SessionSettings {
  /** Schemas in lookup order: HyMem's, then those holding the extensions. */
  readonly searchPath: readonly string[]
  readonly statementTimeoutMs: number
}

/** What kysely needs of a pool; `end()` of a shared PGlite pool only drops this store's reference. */
export interface StorePool {
  connect(): Promise<pg.PoolClient>
  end(): Promise<void>
}

/** How a store reaches PostgreSQL: a server by URL, or an in-process PGlite. */
export interface PostgresConnector {
  /** For messages and `info()`: the server and database without the password, or `pglite`. */
  readonly location: string
  /**
   * True for PGlite: every client is the same backend session, so session state (advisory locks, settings)
   * is shared by all of them.
   */
  readonly sharedSession: boolean
  /** Identifies the database within this process (one PGlite instance, or one URL). */
  readonly identity: object
  /** The pool a store's queries run on. */
  createPool(settings: SessionSettings, maxConnections: number): StorePool
  /** Runs `fn` on one connection without session settings (the bootstrap checks). */
  withClient<T>(fn: (client: pg.ClientBase) => Promise<T>): Promise<T>
  /**
   * Runs before a pooled connection is handed out (PGlite: restores this store's settings when another
   * store on the same instance changed the shared session's).
   */
  readonly onReserve?: (settings: SessionSettings) => (connection: DatabaseConnection) => Promise<void>
  /** A dedicated connection, outside any pool, for a dream lock's session (a server only). */
  createClient(): pg.Client
}

const CONNECT_TIMEOUT_MS = 10_000
const IDLE_TIMEOUT_MS = 30_000
const urlIdentities = new Map<string, object>()
/**
 * PGlite has one backend session, so every store on an instance shares one single-connection pool: a
 * transaction holds it, and other stores wait instead of interleaving statements inside that transaction.
 */
const sharedPools = new WeakMap<object, { pool: pg.Pool; references: number }>()
/** The session settings last applied to each PGlite instance. */
const appliedSettings = new WeakMap<object, string>()

/** A connector for `postgres://` / `postgresql://` URLs. */
export function urlConnector(url: string): PostgresConnector {
  const location = describeUrl(url)
  let identity = urlIdentities.get(url)
  if (!identity) {
    identity = { url: location }
    urlIdentities.set(url, identity)
  }
  const config = (settings?: SessionSettings): pg.ClientConfig => ({
    connectionString: url,
    types: HYMEM_TYPE_PARSERS,
    connectionTimeoutMillis: CONNECT_TIMEOUT_MS,
    application_name: 'hymem',
    ...(settings ? { options: startupOptions(settings) } : {}),
  })
  return {
    location,
    sharedSession: false,
    identity,
    createPool: (settings, maxConnections) => {
      const pool = new pg.Pool({
        ...config(settings),
        max: maxConnections,
        idleTimeoutMillis: IDLE_TIMEOUT_MS,
      })
      // A connection the server drops must not crash the process, idle (the pool's 'error') or checked out
      // (the client's own 'error', emitted besides failing its query): the next query reconnects.
      pool.on('error', () => undefined)
      pool.on('connect', (client) => client.on('error', () => undefined))
      return pool
    },
    withClient: async (fn) => {
      const client = new pg.Client(config())
      client.on('error', () => undefined)
      try {
        await client.connect()
        return await fn(client)
      } finally {
        await client.end().catch(() => undefined)
      }
    },
    createClient: () => new pg.Client(config()),
  }
}

/** A connector for an in-process PGlite, through PGlite's own node-postgres bridge (one session). */
export async function pgliteConnector(pglite: PGliteLike): Promise<PostgresConnector> {
  let bridge: { createPgConfig(pglite: unknown): pg.PoolConfig }
  try {
    bridge = (await import('@electric-sql/pglite/node-postgres')) as unknown as typeof bridge
  } catch (error) {
    throw new StoreError(
      'MISSING_DEPENDENCY',
      `@electric-sql/pglite cannot load (${(error as Error).message}); install it next to @hymem/core-store`,
      { cause: error },
    )
  }
  await pglite.waitReady
  const shared = (): StorePool => {
    let entry = sharedPools.get(pglite)
    if (!entry) {
      entry = {
        pool: new pg.Pool({ ...bridge.createPgConfig(pglite), types: HYMEM_TYPE_PARSERS, max: 1 }),
        references: 0,
      }
      sharedPools.set(pglite, entry)
    }
    const { pool } = entry
    const owner = entry
    owner.references += 1
    let ended = false
    return {
      connect: () => pool.connect(),
      end: async () => {
        if (ended) return
        ended = true
        owner.references -= 1
        if (owner.references > 0) return
        sharedPools.delete(pglite)
        appliedSettings.delete(pglite)
        await pool.end()
      },
    }
  }
  return {
    location: 'pglite',
    sharedSession: true,
    identity: pglite,
    createPool: () => shared(),
    onReserve: (settings) => {
      const wanted = sessionSettingsSql(settings)
      return async (connection) => {
        if (appliedSettings.get(pglite) === wanted) return
        await connection.executeQuery(CompiledQuery.raw(wanted))
        appliedSettings.set(pglite, wanted)
      }
    },
    withClient: async (fn) => {
      const pool = shared()
      try {
        const client = await pool.connect()
        try {
          return await fn(client)
        } finally {
          client.release()
        }
      } finally {
        await pool.end()
      }
    },
    createClient: () => {
      throw new StoreError('UNSUPPORTED', 'PGlite has one session: dream locks use the store connection')
    },
  }
}

/** `postgresql://user@host:port/database`, never the password. Refuses what is not a PostgreSQL URL. */
export function describeUrl(url: string): string {
  let parsed: URL
  try {
    parsed = new URL(url)
  } catch (error) {
    throw new StoreError(
      'INVALID_INPUT',
      'the database URL is not a URL; expected postgres://user:password@host:5432/database',
      { cause: error },
    )
  }
  if (parsed.protocol !== 'postgres:' && parsed.protocol !== 'postgresql:') {
    throw new StoreError(
      'INVALID_INPUT',
      `the database URL must start with postgres:// or postgresql://, not ${parsed.protocol}//`,
    )
  }
  const user = parsed.username ? `${decodeURIComponent(parsed.username)}@` : ''
  return `${parsed.protocol}//${user}${parsed.host}${parsed.pathname}`
}

/** `-c` startup options; names in the search path are plain identifiers (checked before they get here). */
function startupOptions(settings: SessionSettings): string {
  return [
    `-c search_path=${settings.searchPath.join(',')}`,
    `-c statement_timeout=${settings.statementTimeoutMs}`,
    // Filtered HNSW scans (one workspace of many) keep scanning until they have enough rows, in exact order.
    '-c hnsw.iterative_scan=strict_order',
  ].join(' ')
}

function sessionSettingsSql(settings: SessionSettings): string {
  return [
    `SET search_path TO ${settings.searchPath.join(', ')}`,
    `SET statement_timeout = ${settings.statementTimeoutMs}`,
    'SET hnsw.iterative_scan = strict_order',
  ].join('; ')
}
