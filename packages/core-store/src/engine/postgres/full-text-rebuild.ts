import { type Kysely, type RawBuilder, sql } from 'kysely'
import type { HyMemDatabase } from '../../kernel/tables'
import type { FullTextRebuildProgress, FullTextTable } from '../../search/types'
import { POSTGRES_FTS_TEXT_FUNCTION } from './schema/migration-0008-full-text-every-script'

/** Rows recomputed per statement (each its own transaction outside a caller's). */
const BATCH = 2_000

/**
 * A column each table's generated `fts` is computed from; writing it recomputes the row's tsvector. A record,
 * so a new full-text table cannot be left out of the rebuild.
 */
const SOURCE_COLUMN: Record<FullTextTable, string> = {
  messages: 'content',
  chunks: 'text',
  episodes: 'title',
  procedures: 'name',
  notes: 'description',
  passages: 'text',
}

/**
 * PostgreSQL: restores `hymem_fts_text` as the schema defines it, then recomputes every row's generated `fts`
 * tsvector (and so its GIN entries) by rewriting a source column with itself, in batches of ids. Each batch
 * is complete on its own, so an interrupted rebuild leaves correct rows behind and can simply run again.
 */
export async function rebuildPostgresFullText(
  db: Kysely<HyMemDatabase>,
  onProgress?: (event: FullTextRebuildProgress) => void,
): Promise<Record<FullTextTable, number>> {
  await sql.raw(POSTGRES_FTS_TEXT_FUNCTION).execute(db)
  const rows = {} as Record<FullTextTable, number>
  for (const [table, column] of Object.entries(SOURCE_COLUMN) as [FullTextTable, string][])
    rows[table] = await rebuildTable(db, table, column, onProgress)
  return rows
}

async function rebuildTable(
  db: Kysely<HyMemDatabase>,
  table: FullTextTable,
  column: string,
  onProgress?: (event: FullTextRebuildProgress) => void,
): Promise<number> {
  const source = sql.table(table)
  const written = sql.ref(column)
  const total = Number(
    (await sql<{ n: string }>`SELECT count(*) AS n FROM ${source}`.execute(db)).rows[0]?.n ?? 0,
  )
  let done = 0
  onProgress?.({ table, done, total })
  let after: string | number | null = null
  for (;;) {
    const from: RawBuilder<unknown> = after === null ? sql`` : sql`WHERE id > ${after}`
    const batch: { last: string | number | null; n: string } | undefined = (
      await sql<{ last: string | number | null; n: string }>`
        WITH batch AS (SELECT id FROM ${source} ${from} ORDER BY id LIMIT ${BATCH}),
          rewritten AS (
            UPDATE ${source} AS t SET ${written} = t.${written} FROM batch WHERE t.id = batch.id RETURNING t.id)
        SELECT max(id) AS last, count(*) AS n FROM rewritten`.execute(db)
    ).rows[0]
    if (!batch || batch.last === null) break
    done += Number(batch.n)
    after = batch.last
    onProgress?.({ table, done, total: Math.max(total, done) })
  }
  return done
}
