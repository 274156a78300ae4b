/** One forward-only schema step of an engine (SQLite's in `sqlite/schema/`, PostgreSQL's in `postgres/schema/`). */
export interface Migration {
  /** Becomes the stored schema version once applied. Strictly increasing, never reused. */
  readonly version: number
  readonly name: string
  readonly sql: string
}

/** What opening did to the schema: the version found, the version now, and the migrations applied. */
export interface MigrationResult {
  readonly from: number
  readonly to: number
  readonly applied: readonly string[]
}
