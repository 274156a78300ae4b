import { type Kysely, sql } from 'kysely'
import type { HyMemDatabase } from '../schema/tables'
import { selectByIdsSqlite } from './by-ids'
import type { NoteFilter } from './note-values'

// The SQLite-only statements of the notes repository: id lists travel as one JSON array (json_each).

/** The workspace's notes rows among `ids` that pass `filter`. */
export async function notesByIdsSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly string[],
  filter: NoteFilter,
) {
  const where = []
  if (!filter.includeArchived) where.push(sql`archived_at IS NULL`)
  if (filter.observerId !== undefined) where.push(sql`observer_id = ${filter.observerId}`)
  if (filter.observedId !== undefined) where.push(sql`observed_id = ${filter.observedId}`)
  if (filter.aboutPeerOrNobody !== undefined)
    where.push(sql`(observed_id IS NULL OR observed_id = ${filter.aboutPeerOrNobody})`)
  return selectByIdsSqlite(db, 'notes', workspaceId, ids, where)
}

/** One statement for any number of ids: they travel as a JSON array (`+workspace_id` keeps the primary key). */
export async function markAccessedSqlite(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly string[],
  at: string,
): Promise<void> {
  await sql`UPDATE notes SET last_accessed_at = ${at}
    WHERE id IN (SELECT value FROM json_each(${JSON.stringify(ids)})) AND +workspace_id = ${workspaceId}`.execute(
    db,
  )
}
