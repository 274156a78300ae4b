import type { Migration } from '../../migrations'

/** A PostgreSQL migration step: one statement over the rows of `table`. */
export interface PostgresMigrationStep {
  readonly table: string
  readonly sql: string
}

export type PostgresMigration = Migration<PostgresMigrationStep>
