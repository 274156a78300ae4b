import type Database from 'better-sqlite3'

/** Rows indexed per statement: small enough that progress moves, large enough to stay one scan. */
const BATCH = 2_000

/** One FTS5 table `<table>_fts` and what it indexes of its content table. */
export interface FullTextIndexed {
  readonly table: string
  /** The content table's key the FTS rowid follows. */
  readonly rowid: string
  readonly columns: readonly string[]
}

/** Rows of the content table, the total a fill reports against. */
export function countIndexable(
  prepare: (sql: string) => Database.Statement,
  { table }: FullTextIndexed,
): number {
  return Number((prepare(`SELECT count(*) AS n FROM ${table}`).get() as { n: number }).n)
}

/**
 * Indexes every row of the content table into its (empty) FTS5 table through `hymem_fts_text`, in batches of
 * rowids, calling `onBatch` with the rows indexed after each one. Synchronous and transaction-free: the caller
 * holds the connection and the transaction, so a failure or a crash leaves the index as it was.
 */
export function fillFullText(
  prepare: (sql: string) => Database.Statement,
  { table, rowid, columns }: FullTextIndexed,
  onBatch?: (rows: number) => void,
): number {
  const list = columns.join(', ')
  const indexed = columns.map((column) => `hymem_fts_text(${column})`).join(', ')
  const nextBatch = prepare(
    `SELECT max(k) AS last, count(*) AS n FROM (
       SELECT ${rowid} AS k FROM ${table} WHERE ${rowid} > ? ORDER BY ${rowid} LIMIT ${BATCH})`,
  )
  const insert = prepare(
    `INSERT INTO ${table}_fts(rowid, ${list})
     SELECT ${rowid}, ${indexed} FROM ${table} WHERE ${rowid} > ? AND ${rowid} <= ?`,
  )
  let done = 0
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const batch = nextBatch.get(after) as { last: number | null; n: number }
    if (batch.last === null) return done
    insert.run(after, batch.last)
    done += Number(batch.n)
    after = Number(batch.last)
    onBatch?.(Number(batch.n))
  }
}
