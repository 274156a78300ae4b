import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../../kernel/tables'
import type { FullTextRebuildProgress, FullTextTable } from '../../search/types'
import type { RepositoryScope } from '../types'

/** Rows indexed per statement: small enough that progress moves, large enough to stay one scan. */
const BATCH = 2_000

interface IndexedTable {
  readonly table: FullTextTable
  /** The content table's key the FTS rowid follows. */
  readonly rowid: string
  readonly columns: readonly string[]
}

/**
 * What each `<table>_fts` indexes today (the triggers of migrations 8 and 10 keep the same columns). A record,
 * so a new full-text table cannot be left out of the rebuild.
 */
const INDEXED: Record<FullTextTable, Omit<IndexedTable, 'table'>> = {
  messages: { rowid: 'id', columns: ['content'] },
  chunks: { rowid: 'id', columns: ['text'] },
  episodes: { rowid: 'rowid', columns: ['title', 'summary'] },
  procedures: { rowid: 'rowid', columns: ['name', 'description', 'steps_text'] },
  notes: { rowid: 'rowid', columns: ['description', 'content'] },
  passages: { rowid: 'id', columns: ['text'] },
}

/**
 * SQLite: empties each FTS5 table (`delete-all`) and indexes its content table again through
 * `hymem_fts_text`, in batches of rowids, then merges the index segments. One write transaction for all
 * tables: a crash or a failure keeps the index as it was.
 */
export async function rebuildSqliteFullText(
  write: RepositoryScope['write'],
  onProgress?: (event: FullTextRebuildProgress) => void,
): Promise<Record<FullTextTable, number>> {
  return write(async (db) => {
    const rows = {} as Record<FullTextTable, number>
    for (const [table, source] of Object.entries(INDEXED) as [FullTextTable, Omit<IndexedTable, 'table'>][])
      rows[table] = await rebuildTable(db, { table, ...source }, onProgress)
    return rows
  })
}

async function rebuildTable(
  db: Kysely<HyMemDatabase>,
  { table, rowid, columns }: IndexedTable,
  onProgress?: (event: FullTextRebuildProgress) => void,
): Promise<number> {
  const fts = sql.raw(`${table}_fts`)
  const key = sql.raw(rowid)
  const content = sql.raw(table)
  const total = Number(
    (await sql<{ n: number }>`SELECT count(*) AS n FROM ${content}`.execute(db)).rows[0]?.n ?? 0,
  )
  await sql`INSERT INTO ${fts}(${fts}) VALUES ('delete-all')`.execute(db)
  const list = sql.raw(columns.join(', '))
  const indexed = sql.raw(columns.map((column) => `hymem_fts_text(${column})`).join(', '))
  let done = 0
  onProgress?.({ table, done, total })
  for (let after = Number.MIN_SAFE_INTEGER; ; ) {
    const last = (
      await sql<{ last: number | null; n: number }>`
        SELECT max(k) AS last, count(*) AS n FROM (
          SELECT ${key} AS k FROM ${content} WHERE ${key} > ${after} ORDER BY ${key} LIMIT ${BATCH})`.execute(
        db,
      )
    ).rows[0]
    if (!last || last.last === null) break
    await sql`INSERT INTO ${fts}(rowid, ${list})
      SELECT ${key}, ${indexed} FROM ${content} WHERE ${key} > ${after} AND ${key} <= ${last.last}`.execute(
      db,
    )
    done += Number(last.n)
    after = Number(last.last)
    onProgress?.({ table, done, total: Math.max(total, done) })
  }
  await sql`INSERT INTO ${fts}(${fts}) VALUES ('optimize')`.execute(db)
  return done
}
