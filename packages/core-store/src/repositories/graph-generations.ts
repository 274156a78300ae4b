import type { Kysely } from 'kysely'
import type { HyMemDatabase } from '../kernel/tables'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/**
 * The graph generation of each workspace (`graph_generations`): a counter advanced whenever the workspace's
 * graph changes, so a process caching reads of the graph (entity names, seed edges) drops them when another
 * process — another server on the same database, the CLI beside a server — changed it.
 */
export interface GraphGenerationsRepository {
  /** The workspace's generation: 0 until its graph first changes. */
  current(workspaceId: string): Promise<number>
  /** Advances the workspace's generation by one, race-free under concurrent writers; returns the new one. */
  advance(workspaceId: string): Promise<number>
}

export function createGraphGenerationsRepository(scope: RepositoryScope): GraphGenerationsRepository {
  const { db } = scope
  return {
    async current(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const row = await db
        .selectFrom('graph_generations')
        .select('generation')
        .where('workspace_id', '=', workspaceId)
        .executeTakeFirst()
      return Number(row?.generation ?? 0)
    },
    async advance(workspaceId) {
      requireId(workspaceId, 'workspace id')
      return _advanceGraphGeneration(db, workspaceId)
    },
  }
}

/** Advances the workspace's graph generation on `db` (inside the caller's transaction, when it has one). */
export async function _advanceGraphGeneration(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
): Promise<number> {
  const row = await db
    .insertInto('graph_generations')
    .values({ workspace_id: workspaceId, generation: 1 })
    .onConflict((conflict) =>
      conflict
        .column('workspace_id')
        .doUpdateSet((update) => ({ generation: update('graph_generations.generation', '+', 1) })),
    )
    .returning('generation')
    .executeTakeFirstOrThrow()
  return Number(row.generation)
}
