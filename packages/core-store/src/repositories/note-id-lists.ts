import { type Kysely, sql } from 'kysely'
import type { StoreEngine } from '../engine/types'
import type { HyMemDatabase } from '../kernel/tables'
import { selectByIds } from './by-ids'
import type { NoteFilter } from './note-values'

// The notes repository's id-list statements: the ids travel as one parameter (see `_inIdList`).

/** The workspace's notes rows among `ids` that pass `filter`. */
export async function notesByIds(
  engine: StoreEngine,
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
  return selectByIds(engine, db, 'notes', workspaceId, ids, where)
}

/** One statement for any number of ids (`+workspace_id` keeps SQLite on the primary key). */
export async function markNotesAccessed(
  engine: StoreEngine,
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  ids: readonly string[],
  at: string,
): Promise<void> {
  await sql`UPDATE notes SET last_accessed_at = ${at}
    WHERE ${engine.inIdList('id', ids)} AND ${engine.notIndexed('workspace_id')} = ${workspaceId}`.execute(db)
}
