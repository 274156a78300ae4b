import type Database from 'better-sqlite3'
import { StoreError } from '../../kernel/errors'
import { type MigrationProgress, type MigrationResult, migrationId, migrationProgress } from '../migrations'
import { countIndexable, fillFullText } from './full-text-fill'
import { MIGRATIONS, SCHEMA_VERSION, type SqliteMigration } from './schema/migrations'

/**
 * Brings the file up to SCHEMA_VERSION, one transaction per migration. `BEGIN IMMEDIATE` plus a re-read of
 * `user_version` inside the transaction makes two processes opening a new file at once safe. A migration's
 * steps run inside its transaction, so a process killed half-way leaves the file at the version before and
 * the next open does the migration again from the start.
 */
export function migrate(
  sqlite: Database.Database,
  path: string,
  onProgress?: (progress: MigrationProgress) => void,
): MigrationResult {
  const from = readVersion(sqlite)
  refuseNewer(from, path)
  const applied: string[] = []
  for (const migration of MIGRATIONS) {
    if (migration.version <= from) continue
    sqlite.exec('BEGIN IMMEDIATE')
    try {
      const current = readVersion(sqlite)
      refuseNewer(current, path)
      if (current < migration.version) {
        sqlite.exec(migration.sql)
        runSteps(sqlite, migration, onProgress)
        sqlite.pragma(`user_version = ${migration.version}`)
        applied.push(migrationId(migration))
      }
      sqlite.exec('COMMIT')
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK')
      if (error instanceof StoreError) throw error
      throw new StoreError(
        'MIGRATION_FAILED',
        `migration ${migrationId(migration)} failed on ${path}; the file was left at schema version ${readVersion(sqlite)}`,
        { cause: error },
      )
    }
  }
  return { from, to: readVersion(sqlite), applied }
}

function runSteps(
  sqlite: Database.Database,
  migration: SqliteMigration,
  onProgress?: (progress: MigrationProgress) => void,
): void {
  const steps = migration.steps ?? []
  if (steps.length === 0) return
  const prepare = (text: string) => sqlite.prepare(text)
  const total = steps.reduce((sum, step) => sum + countIndexable(prepare, step), 0)
  const advance = migrationProgress(migration, total, onProgress)
  for (const step of steps) {
    advance(step.table, 0)
    fillFullText(prepare, step, (rows) => advance(step.table, rows))
  }
}

export function readVersion(sqlite: Database.Database): number {
  return sqlite.pragma('user_version', { simple: true }) as number
}

function refuseNewer(version: number, path: string): void {
  if (version > SCHEMA_VERSION) {
    throw new StoreError(
      'SCHEMA_TOO_NEW',
      `${path} has schema version ${version}, but this HyMem understands up to version ${SCHEMA_VERSION}: upgrade HyMem to open it`,
    )
  }
}
