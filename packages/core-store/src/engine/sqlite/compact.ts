import type { RepositoryScope } from '../../repositories/scope'
import type { StatementCache } from '../types'

/** The full-text index of each receipt kind whose rows it indexed. */
const FTS_OF_KIND: readonly (readonly [string, string])[] = [
  ['messages', 'messages_fts'],
  ['chunks', 'chunks_fts'],
  ['episodes', 'episodes_fts'],
  ['procedures', 'procedures_fts'],
  ['notes', 'notes_fts'],
]

/**
 * Takes forgotten words out of the files. Deleted rows are already zeroed in their pages (the store runs
 * with `secure_delete`), but an FTS5 index keeps a deleted row's terms in its older segments until they
 * are merged: `optimize` rewrites each affected index as one segment without them. Then a
 * `wal_checkpoint(TRUNCATE)` copies the zeroed pages into the database file and empties the write-ahead log,
 * which still held the pages as they were. The checkpoint fails (`checkpointed: false`) while another
 * connection reads an older snapshot; run it again later.
 */
export async function compactSqlite(
  statements: StatementCache,
  scope: RepositoryScope,
  removed: Readonly<Record<string, number>>,
  everything: boolean,
): Promise<{ optimized: string[]; checkpointed: boolean }> {
  const optimized = FTS_OF_KIND.filter(([kind]) => everything || (removed[kind] ?? 0) > 0).map(
    ([, table]) => table,
  )
  for (const table of optimized) {
    await scope.write(() => {
      statements.prepare(`INSERT INTO ${table}(${table}) VALUES ('optimize')`).run()
    })
  }
  const checkpointed = await scope.db.connection().execute(async () => {
    const row = statements.prepare('PRAGMA wal_checkpoint(TRUNCATE)').get() as
      | { busy: number; log: number; checkpointed: number }
      | undefined
    return row === undefined || row.busy === 0
  })
  return { optimized, checkpointed }
}
