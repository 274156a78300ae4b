import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import type { BackupRepository } from './backup'
import { BACKUP_TABLES, type BackupTable } from './backup-tables'
import type { BackupTableName, BackupValues } from './backup-values'
import { sqliteBackupVectors } from './backup-vectors'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

const PAGE = 500

/** The builder with table and column names known only at run time (they come from {@link BACKUP_TABLES}). */
type AnyTables = Kysely<Record<string, Record<string, Cell>>>
type Cell = string | number | null

export function createBackupRepository(scope: RepositoryScope): BackupRepository {
  const loose = (db: Kysely<HyMemDatabase>) => db as unknown as AnyTables

  async function* rows<N extends BackupTableName>(name: N, workspaceId: string) {
    requireId(workspaceId, 'workspace id')
    const table: BackupTable<N> = BACKUP_TABLES[name]
    const key: string | undefined = table.key
    const from: string = name
    let after: Cell = null
    for (;;) {
      let query = loose(scope.db).selectFrom(from).selectAll().where('workspace_id', '=', workspaceId)
      if (key === undefined) for (const column of table.order ?? []) query = query.orderBy(column as string)
      else {
        if (after !== null) query = query.where(key, '>', after)
        query = query.orderBy(key).limit(PAGE)
      }
      const page = (await query.execute()) as Parameters<BackupTable<N>['read']>[2]
      if (page.length > 0) yield* await table.read(scope, workspaceId, page)
      if (key === undefined || page.length < PAGE) return
      after = (page.at(-1) as Record<string, Cell>)[key] ?? null
    }
  }

  /** Writes a row unless it is a repeat, then what hangs off it; the row's id when the table assigns one. */
  async function write<N extends BackupTableName>(
    tx: Kysely<HyMemDatabase>,
    name: N,
    value: BackupValues[N],
  ) {
    const table: BackupTable<N> = BACKUP_TABLES[name]
    const into: string = name
    const row = table.write(value) as Record<string, Cell>
    const same = table.sameWhen?.(value) ?? null
    let id: number | undefined
    let inserted: boolean
    if (same === null) {
      const result = await loose(tx)
        .insertInto(into)
        .values(row)
        .onConflict((oc) => oc.doNothing())
        .executeTakeFirst()
      inserted = Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    } else {
      let query = loose(tx).selectFrom(into).select('id')
      for (const column of same as readonly string[]) {
        const cell = row[column] ?? null
        query = query.where(column, cell === null ? 'is' : '=', cell)
      }
      const found = await query.executeTakeFirst()
      inserted = found === undefined
      const stored =
        found ?? (await loose(tx).insertInto(into).values(row).returning('id').executeTakeFirstOrThrow())
      id = Number(stored.id)
    }
    await table.writeRelated?.(scope, tx, value, id)
    return { id, inserted }
  }

  return {
    rows,
    async insertIfAbsent(name, value) {
      requireId(value.workspaceId, 'workspace id')
      return (await scope.write((tx) => write(tx, name, value))).inserted
    },
    async insertChunkIfAbsent(chunk) {
      requireId(chunk.workspaceId, 'workspace id')
      requireId(chunk.sessionId, 'session id')
      const { id, inserted } = await scope.write((tx) => write(tx, 'chunks', { ...chunk, id: 0 }))
      return { id: id!, inserted }
    },
    vectors: sqliteBackupVectors(scope),
  }
}
