import { CompiledQuery, type DatabaseConnection } from 'kysely'
import pg from 'pg'
import { StoreError } from '../store/errors'
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
  createPool(settings: SessionSettings, maxConnections: number): pg.Pool
  /**
   * Runs before a pooled connection is handed out (PGlite: restores this store's settings when another
   * store on the same instance changed the shared session's).
   */
  readonly onReserve?: (settings: SessionSettings) => (connection: DatabaseConnection) => Promise<void>
  /** One connection outside any pool, without session settings (bootstrap checks, a dream lock's session). */
  createClient(): pg.Client
}

const CONNECT_TIMEOUT_MS = 10_000
const IDLE_TIMEOUT_MS = 30_000
const urlIdentities = new Map<string, object>()
/** The session settings last applied to each PGlite instance (its one session is shared by every store). */
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
    createPool: (settings, maxConnections) =>
      new pg.Pool({ ...config(settings), max: maxConnections, idleTimeoutMillis: IDLE_TIMEOUT_MS }),
    createClient: () => new pg.Client(config()),
  }
}

/** A connector for an in-process PGlite, through PGlite's own node-postgres bridge (one session). */
export async function pgliteConnector(pglite: PGliteLike): Promise<PostgresConnector> {
  let bridge: { createPgConfig(pglite: unknown): pg.ClientConfig }
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
  const config = (): pg.ClientConfig => ({ ...bridge.createPgConfig(pglite), types: HYMEM_TYPE_PARSERS })
  return {
    location: 'pglite',
    sharedSession: true,
    identity: pglite,
    createPool: () => new pg.Pool({ ...config(), max: 1 }),
    onReserve: (settings) => {
      const wanted = sessionSettingsSql(settings)
      return async (connection) => {
        if (appliedSettings.get(pglite) === wanted) return
        await connection.executeQuery(CompiledQuery.raw(wanted))
        appliedSettings.set(pglite, wanted)
      }
    },
    createClient: () => new pg.Client(config()),
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
