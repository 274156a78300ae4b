import type pg from 'pg'
import { StoreError } from '../../kernel/errors'
import type { PostgresConnector } from './connection'
import { mapPostgresError } from './errors'

/** What a store learns about its server before it opens its pool. */
export interface ServerFacts {
  readonly serverVersion: string
  readonly pgvectorVersion: string
  /** HyMem's schema, then the schemas holding `vector` and `unaccent`, then `public`. */
  readonly searchPath: readonly string[]
}

const PLAIN_IDENTIFIER = /^[a-z_][a-z0-9_]{0,62}$/

/** Refuses a schema name that would need quoting (it also goes into startup options unquoted). */
export function checkSchemaName(schema: string): string {
  if (!PLAIN_IDENTIFIER.test(schema)) {
    throw new StoreError(
      'INVALID_INPUT',
      `schema must be a plain lower-case identifier (letters, digits, _; at most 63), not ${JSON.stringify(schema)}`,
    )
  }
  return schema
}

/**
 * Connects once outside the pool: checks the server answers and accepts the credentials, creates `vector`
 * and `unaccent` when missing (or says how to), and learns the versions and where the extensions live.
 */
export async function bootstrap(connector: PostgresConnector, schema: string): Promise<ServerFacts> {
  try {
    return await connector.withClient((client) => inspectServer(client, schema, connector))
  } catch (error) {
    throw mapPostgresError(error, connector.location)
  }
}

async function inspectServer(
  client: pg.ClientBase,
  schema: string,
  connector: PostgresConnector,
): Promise<ServerFacts> {
  const version = await client.query<{ server_version: string }>('SHOW server_version')
  await ensureExtension(client, 'vector', connector)
  await ensureExtension(client, 'unaccent', connector)
  const extensions = await client.query<{ extname: string; extversion: string; nspname: string }>(
    `SELECT e.extname, e.extversion, n.nspname FROM pg_extension AS e
     JOIN pg_namespace AS n ON n.oid = e.extnamespace WHERE e.extname IN ('vector', 'unaccent')`,
  )
  const searchPath = [schema]
  for (const row of extensions.rows) {
    if (PLAIN_IDENTIFIER.test(row.nspname) && !searchPath.includes(row.nspname)) searchPath.push(row.nspname)
  }
  if (!searchPath.includes('public')) searchPath.push('public')
  return {
    serverVersion: version.rows[0]?.server_version ?? 'unknown',
    pgvectorVersion: extensions.rows.find((row) => row.extname === 'vector')?.extversion ?? 'unknown',
    searchPath,
  }
}

const EXTENSION_PURPOSE: Record<string, string> = {
  vector: 'pgvector (vector search)',
  unaccent: 'unaccent (accent folding in full-text search, part of PostgreSQL contrib)',
}

async function ensureExtension(
  client: pg.ClientBase,
  name: string,
  connector: PostgresConnector,
): Promise<void> {
  const present = await client.query('SELECT 1 FROM pg_extension WHERE extname = $1', [name])
  if (present.rowCount) return
  try {
    await client.query(`CREATE EXTENSION IF NOT EXISTS ${name}`)
  } catch (error) {
    const again = await client.query('SELECT 1 FROM pg_extension WHERE extname = $1', [name])
    if (again.rowCount) return // created by a concurrent opener
    const fix = connector.sharedSession
      ? `create PGlite with the extension: PGlite.create({ extensions: { vector, unaccent } })`
      : `run CREATE EXTENSION ${name}; in this database as a superuser (${name} must be installed on the server)`
    throw new StoreError(
      'MISSING_DEPENDENCY',
      `the database at ${connector.location} has no ${EXTENSION_PURPOSE[name]} and HyMem could not create it (${(error as Error).message}); ${fix}`,
      { cause: error },
    )
  }
}
