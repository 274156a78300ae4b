import type Database from 'better-sqlite3'
import { StoreError } from '../../kernel/errors'
import { MIGRATIONS, SCHEMA_VERSION } from './schema/migrations'

export interface MigrationResult {
  readonly from: number
  readonly to: number
  readonly applied: readonly string[]
}

/**
 * Brings the file up to SCHEMA_VERSION, one transaction per migration. `BEGIN IMMEDIATE` plus a re-read of
 * `user_version` inside the transaction makes two processes opening a new file at once safe.
 */
export function migrate(sqlite: Database.Database, path: string): MigrationResult {
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
        sqlite.pragma(`user_version = ${migration.version}`)
        applied.push(`${migration.version}-${migration.name}`)
      }
      sqlite.exec('COMMIT')
    } catch (error) {
      if (sqlite.inTransaction) sqlite.exec('ROLLBACK')
      if (error instanceof StoreError) throw error
      throw new StoreError(
        'MIGRATION_FAILED',
        `migration ${migration.version}-${migration.name} failed on ${path}; the file was left at schema version ${readVersion(sqlite)}`,
        { cause: error },
      )
    }
  }
  return { from, to: readVersion(sqlite), applied }
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
