import Database from 'better-sqlite3'
import { MIGRATIONS } from '../src/engine/sqlite/schema/migrations'

/**
 * A SQLite database file as HyMem left it at schema `version` (its migrations up to that one, and the
 * version mark), open for the caller to seed and close: the starting point of a migration test.
 */
export function databaseAtVersion(path: string, version: number): Database.Database {
  const raw = new Database(path)
  for (const migration of MIGRATIONS.filter((m) => m.version <= version)) raw.exec(migration.sql)
  raw.pragma(`user_version = ${version}`)
  return raw
}
