import { type Kysely, sql } from 'kysely'
import { StoreError } from '../../kernel/errors'
import { type MigrationProgress, type MigrationResult, migrationId, migrationProgress } from '../migrations'
import { LOCK_NAMESPACE } from './lock-keys'
import type { PostgresMigration } from './schema/migration-step'
import { POSTGRES_MIGRATIONS, POSTGRES_SCHEMA_VERSION } from './schema/migrations'

export interface MigratePostgresOptions {
  /** The migrations to apply (tests add a broken one); the schema's own by default. */
  readonly migrations?: readonly PostgresMigration[]
  readonly onProgress?: (progress: MigrationProgress) => void
}

/**
 * Brings the schema up to POSTGRES_SCHEMA_VERSION, one transaction per migration. Each transaction first takes a
 * transaction-level advisory lock for this schema and re-reads the version, so servers opening a new
 * database at the same time apply each migration once. The version lives in `schema_version` (one row).
 */
export async function migratePostgres(
  db: Kysely<unknown>,
  schema: string,
  searchPath: readonly string[],
  location: string,
  { migrations = POSTGRES_MIGRATIONS, onProgress }: MigratePostgresOptions = {},
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
        await runSteps(tx, migration, onProgress)
        await sql`INSERT INTO schema_version (id, version, updated_at)
          VALUES (1, ${migration.version}, ${new Date().toISOString()})
          ON CONFLICT (id) DO UPDATE SET version = excluded.version, updated_at = excluded.updated_at`.execute(
          tx,
        )
        applied.push(migrationId(migration))
      })
    } catch (error) {
      if (error instanceof StoreError) throw error
      const at = await db.transaction().execute(async (tx) => {
        await sql.raw(`SET LOCAL search_path TO ${searchPath.join(', ')}`).execute(tx)
        return readPostgresVersion(tx)
      })
      throw new StoreError(
        'MIGRATION_FAILED',
        `migration ${migrationId(migration)} failed on ${location} (schema ${schema}): ${(error as Error).message}; the schema was left at version ${at}`,
        { cause: error },
      )
    }
  }
  return { from, to: await inLockedTransaction(readPostgresVersion), applied }
}

/**
 * Runs a migration's steps in its transaction. A step is one statement over a whole table (PostgreSQL
 * rewrites a table for a generated column in one go), so progress moves a table at a time.
 */
async function runSteps(
  tx: Kysely<unknown>,
  migration: PostgresMigration,
  onProgress?: (progress: MigrationProgress) => void,
): Promise<void> {
  const steps = migration.steps ?? []
  if (steps.length === 0) return
  const rows: number[] = []
  for (const { table } of steps)
    rows.push(
      Number(
        (await sql<{ n: string }>`SELECT count(*) AS n FROM ${sql.table(table)}`.execute(tx)).rows[0]?.n ?? 0,
      ),
    )
  const advance = migrationProgress(
    migration,
    rows.reduce((sum, n) => sum + n, 0),
    onProgress,
  )
  for (const [index, step] of steps.entries()) {
    advance(step.table, 0)
    await sql.raw(step.sql).execute(tx)
    advance(step.table, rows[index] ?? 0)
  }
}

/** The schema version, 0 before the first migration. Run with HyMem's schema on the search path. */
export async function readPostgresVersion(db: Kysely<unknown>): Promise<number> {
  const result = await sql<{ version: number }>`SELECT version FROM schema_version WHERE id = 1`.execute(db)
  return result.rows[0]?.version ?? 0
}

function refuseNewer(version: number, location: string, schema: string): void {
  if (version > POSTGRES_SCHEMA_VERSION) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `${location} (schema ${schema}) has schema version ${version}, but this HyMem understands up to version ${POSTGRES_SCHEMA_VERSION}: upgrade HyMem to open it`,
    )
  }
}
