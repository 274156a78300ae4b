import type { FullTextRebuildProgress, FullTextTable } from '../../search/types'
import type { StatementCache } from '../types'
import { countIndexable, type FullTextIndexed, fillFullText } from './full-text-fill'

/**
 * What each `<table>_fts` indexes today (the triggers of migrations 8 and 10 keep the same columns). A record,
 * so a new full-text table cannot be left out of the rebuild.
 */
const INDEXED: Record<FullTextTable, Omit<FullTextIndexed, 'table'>> = {
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
  write: <T>(fn: () => T) => Promise<T>,
  statements: StatementCache,
  onProgress?: (event: FullTextRebuildProgress) => void,
): Promise<Record<FullTextTable, number>> {
  const prepare = (text: string) => statements.prepare(text)
  return write(() => {
    const rows = {} as Record<FullTextTable, number>
    for (const [table, source] of Object.entries(INDEXED) as [
      FullTextTable,
      Omit<FullTextIndexed, 'table'>,
    ][]) {
      const indexed = { table, ...source }
      const total = countIndexable(prepare, indexed)
      let done = 0
      onProgress?.({ table, done, total })
      prepare(`INSERT INTO ${table}_fts(${table}_fts) VALUES ('delete-all')`).run()
      rows[table] = fillFullText(prepare, indexed, (batch) => {
        done += batch
        onProgress?.({ table, done, total: Math.max(total, done) })
      })
      prepare(`INSERT INTO ${table}_fts(${table}_fts) VALUES ('optimize')`).run()
    }
    return rows
  })
}
