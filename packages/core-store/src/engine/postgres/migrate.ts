import { type Kysely, sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import type { MigrationResult } from '../sqlite/migrate'
import type { Migration } from '../sqlite/schema/migrations'
import { SCHEMA_VERSION } from '../sqlite/schema/migrations'
import { LOCK_NAMESPACE } from './lock-keys'
import { POSTGRES_MIGRATIONS } from './schema/migrations'

/**
 * Brings the schema up to SCHEMA_VERSION, one transaction per migration. Each transaction first takes a
 * transaction-level advisory lock for this schema and re-reads the version, so servers opening a new
 * database at the same time apply each migration once. The version lives in `schema_version` (one row).
 */
export async function migratePostgres(
  db: Kysely<unknown>,
  schema: string,
  searchPath: readonly string[],
  location: string,
  migrations: readonly Migration[] = POSTGRES_MIGRATIONS,
): Promise<MigrationResult> {
  const inLockedTransaction = <T>(fn: (tx: Kysely<unknown>) => Promise<T>): Promise<T> =>
    db.transaction().execute(async (tx) => {
      await sql`SELECT pg_advisory_xact_lock(${LOCK_NAMESPACE}, hashtext(${`${schema}:migrate`}))`.execute(tx)
      await sql.raw(`SET LOCAL search_path TO ${searchPath.join(', ')}`).execute(tx)
      return fn(tx)
    })

  const from = await inLockedTransaction(async (tx) => {
    await sql.raw(`CREATE SCHEMA IF NOT EXISTS ${schema}`).execute(tx)
    await sql`CREATE TABLE IF NOT EXISTS schema_version (
      id integer PRIMARY KEY CHECK (id = 1),
      version integer NOT NULL,
      updated_at text NOT NULL
    )`.execute(tx)
    return readPostgresVersion(tx)
  })
  refuseNewer(from, location, schema)
  const applied: string[] = []
  for (const migration of migrations) {
    if (migration.version <= from) continue
    try {
      await inLockedTransaction(async (tx) => {
        const current = await readPostgresVersion(tx)
        refuseNewer(current, location, schema)
        if (current >= migration.version) return
        await sql.raw(migration.sql).execute(tx)
        await sql`INSERT INTO schema_version (id, version, updated_at)
          VALUES (1, ${migration.version}, ${new Date().toISOString()})
          ON CONFLICT (id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`.execute(
          tx,
        )
        applied.push(`${migration.version}-${migration.name}`)
      })
    } catch (error) {
      if (error instanceof StoreError) throw error
      const at = await db.transaction().execute(async (tx) => {
        await sql.raw(`SET LOCAL search_path TO ${searchPath.join(', ')}`).execute(tx)
        return readPostgresVersion(tx)
      })
      throw new StoreError(
        'MIGRATION_FAILED',
        `migration ${migration.version}-${migration.name} failed on ${location} (schema ${schema}): ${(error as Error).message}; the schema was left at version ${at}`,
        { cause: error },
      )
    }
  }
  return { from, to: await inLockedTransaction(readPostgresVersion), applied }
}

/** The schema version, 0 before the first migration. Run with HyMem's schema on the search path. */
export async function readPostgresVersion(db: Kysely<unknown>): Promise<number> {
  const result = await sql<{ version: number }>`SELECT version FROM schema_version WHERE id = 1`.execute(db)
  return result.rows[0]?.version ?? 0
}

function refuseNewer(version: number, location: string, schema: string): void {
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `${location} (schema ${schema}) has schema version ${version}, but this HyMem understands up to version ${SCHEMA_VERSION}: upgrade HyMem to open it`,
    )
  }
}
