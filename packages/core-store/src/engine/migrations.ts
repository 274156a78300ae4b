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

/** `<version>-<name>`: how results, errors and progress name a migration. */
export function migrationId(migration: Pick<Migration<unknown>, 'version' | 'name'>): string {
  return `${migration.version}-${migration.name}`
}

/**
 * Progress over a migration's steps, `total` rows in all: `advance(table, rows)` adds the rows a step has just
 * gone through (0 as a step starts) and reports. Silent when there is nothing stored (a new store).
 */
export function migrationProgress(
  migration: Migration<unknown>,
  total: number,
  onProgress?: (progress: MigrationProgress) => void,
): (table: string, rows: number) => void {
  const report = total > 0 ? onProgress : undefined
  const id = migrationId(migration)
  let done = 0
  return (table, rows) => {
    done += rows
    report?.({ migration: id, table, done, total: Math.max(total, done) })
  }
}

/** What opening did to the schema: the version found, the version now, and the migrations applied. */
export interface MigrationResult {
  readonly from: number
  readonly to: number
  readonly applied: readonly string[]
}
