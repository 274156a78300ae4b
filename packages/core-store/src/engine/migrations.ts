/** One forward-only schema step of an engine (SQLite's in `sqlite/schema/`, PostgreSQL's in `postgres/schema/`). */
export interface Migration<Step = never> {
  /** Becomes the stored schema version once applied. Strictly increasing, never reused. */
  readonly version: number
  readonly name: string
  readonly sql: string
  /**
   * Work over the rows already stored that runs after `sql`, in the same transaction, one step at a time and
   * reported as {@link MigrationProgress} (filling a new index, say). Each engine says what a step is.
   */
  readonly steps?: readonly Step[]
}

/** How far a migration's steps are over the rows already stored: `done` of `total`, now in `table`. */
export interface MigrationProgress {
  /** `<version>-<name>`, as in {@link MigrationResult.applied}. */
  readonly migration: string
  readonly table: string
  readonly done: number
  readonly total: number
}

/** What opening did to the schema: the version found, the version now, and the migrations applied. */
export interface MigrationResult {
  readonly from: number
  readonly to: number
  readonly applied: readonly string[]
}
