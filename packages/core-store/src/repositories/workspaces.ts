import type { Kysely, Selectable } from 'kysely'
import { _filterFor, type FilterTarget, WORKSPACE_FILTER_FIELDS } from '../filter'
import type { HyMemDatabase, WorkspacesTable } from '../kernel/tables'
import { objectText, parseObject, requireId } from './json'
import { listPage } from './pagination'
import type { RepositoryScope } from './scope'
import type { JsonObject, Workspace, WorkspacesRepository } from './types'

/** Tables scoped by `workspace_id` without a cascading foreign key to `workspaces`, cleared on delete. */
const WORKSPACE_TABLES = [
  'messages',
  'session_peers',
  'entity_mentions',
  'entity_types',
  'entity_aliases',
  'kg_evidence',
  'knowledge_graph',
  'behavioral_markers',
  'profile_entries',
  'episode_embeddings',
  'episodes',
  'procedures',
  'extraction_feedback',
  'note_embeddings',
  'notes',
  'chunk_embeddings',
  'chunks',
  'dream_runs',
  'search_log',
  'peer_cards',
  'scope_sessions',
  'queue_totals',
] as const

/**
 * Tables counted by `counts()`, all scoped by `workspace_id`: every row a workspace owns, including the
 * stored vectors (ordinary tables on both engines; sqlite-vec's vec0 tables are only an index over them).
 * `processed_chunks` is counted through its chunks (SQLite's has no `workspace_id`). Not per workspace, so not
 * counted: `workspaces`, `edge_embeddings` and `llm_cache` (caches keyed by text), `vector_indexes` (the model
 * pins), `run_lock`, `passages`, `passage_embeddings`, `topic_mentions`, `topic_progress` and
 * `standing_rules` (indexes over the messages that dreaming rebuilds). Not memory, so not counted: `graph_generations` (a counter for query caches, advanced on
 * each side by whatever changes the graph, an import included) and `queue_totals`
 * (the high-water marks of Honcho's queue status).
 */
const COUNTED = [
  'peers',
  'sessions',
  'session_peers',
  'messages',
  'message_embeddings',
  'chunks',
  'processed_chunks',
  'entity_mentions',
  'chunk_embeddings',
  'knowledge_graph',
  'kg_evidence',
  'edge_vectors',
  'entity_aliases',
  'entity_types',
  'behavioral_markers',
  'profile_entries',
  'episodes',
  'episode_embeddings',
  'procedures',
  'notes',
  'note_embeddings',
  'extraction_feedback',
  'scopes',
  'scope_sessions',
  'peer_cards',
  'dream_runs',
  'search_log',
  'purges',
] as const
const WORKSPACE_TARGET: FilterTarget<keyof typeof WORKSPACE_FILTER_FIELDS> = {
  name: 'workspaces',
  kinds: WORKSPACE_FILTER_FIELDS,
  columns: { id: 'workspaces.id', createdAt: 'workspaces.created_at', metadata: 'workspaces.metadata' },
}

export function toWorkspace(row: Selectable<WorkspacesTable>): Workspace {
  return {
    id: row.id,
    metadata: parseObject(row.metadata),
    configuration: parseObject(row.configuration),
    createdAt: row.created_at,
  }
}

/** Inserts the workspace row when missing; true when it was created. */
export async function ensureWorkspace(
  db: Kysely<HyMemDatabase>,
  id: string,
  now: string,
  init: { metadata?: string; configuration?: string } = {},
): Promise<boolean> {
  const result = await db
    .insertInto('workspaces')
    .values({ id, created_at: now, ...init })
    .onConflict((oc) => oc.column('id').doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

export function createWorkspacesRepository(scope: RepositoryScope): WorkspacesRepository {
  const { db, context } = scope
  const get = async (id: string): Promise<Workspace | null> => {
    const row = await db.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirst()
    return row ? toWorkspace(row) : null
  }

  return {
    async getOrCreate(id, init = {}) {
      requireId(id, 'workspace id')
      const metadata = objectText(init.metadata, 'metadata')
      const configuration = objectText(init.configuration, 'configuration')
      return scope.write(async (tx) => {
        const created = await ensureWorkspace(tx, id, context.now(), { metadata, configuration })
        const row = await tx
          .selectFrom('workspaces')
          .selectAll()
          .where('id', '=', id)
          .executeTakeFirstOrThrow()
        return { value: toWorkspace(row), created }
      })
    },
    get: (id) => get(id),
    async list(request, filter) {
      const matching = db.selectFrom('workspaces').where(_filterFor(scope.engine, WORKSPACE_TARGET, filter))
      return listPage(
        request,
        matching,
        (rows, direction) => rows.selectAll().orderBy('created_at', direction).orderBy('id', direction),
        toWorkspace,
      )
    },
    async update(id, patch) {
      requireId(id, 'workspace id')
      const metadata = objectText(patch.metadata, 'metadata')
      objectText(patch.configuration, 'configuration')
      return scope.write(async (tx) => {
        await ensureWorkspace(tx, id, context.now())
        const current = await tx
          .selectFrom('workspaces')
          .select('configuration')
          .where('id', '=', id)
          .$if(scope.engine.rowLocks, (query) => query.forUpdate())
          .executeTakeFirstOrThrow()
        const configuration = mergeConfiguration(current.configuration, patch.configuration)
        await tx
          .updateTable('workspaces')
          .set({ ...(metadata === undefined ? {} : { metadata }), configuration })
          .where('id', '=', id)
          .execute()
        return toWorkspace(
          await tx.selectFrom('workspaces').selectAll().where('id', '=', id).executeTakeFirstOrThrow(),
        )
      })
    },
    async delete(id) {
      requireId(id, 'workspace id')
      return scope.write(async (tx) => {
        const exists = await tx.selectFrom('workspaces').select('id').where('id', '=', id).executeTakeFirst()
        if (!exists) return false
        scope.engine.removeWorkspaceVectors(context, id)
        await tx
          .deleteFrom('processed_chunks')
          .where('chunk_id', 'in', tx.selectFrom('chunks').select('id').where('workspace_id', '=', id))
          .execute()
        await tx.deleteFrom('edge_vectors').where('workspace_id', '=', id).execute()
        for (const table of WORKSPACE_TABLES)
          await tx.deleteFrom(table).where('workspace_id', '=', id).execute()
        await tx.deleteFrom('workspaces').where('id', '=', id).execute()
        return true
      })
    },
    async listAll() {
      const rows = await db.selectFrom('workspaces').selectAll().orderBy('id').execute()
      return rows.map(toWorkspace)
    },
    async insertIfAbsent(workspace) {
      requireId(workspace.id, 'workspace id')
      const metadata = objectText(workspace.metadata, 'metadata')
      const configuration = objectText(workspace.configuration, 'configuration')
      return scope.write((tx) =>
        ensureWorkspace(tx, workspace.id, workspace.createdAt, { metadata, configuration }),
      )
    },
    async counts(id) {
      // One statement: a scalar count per table.
      const row = await db
        .selectNoFrom((eb) =>
          COUNTED.map((table) =>
            table === 'processed_chunks'
              ? eb
                  .selectFrom('processed_chunks')
                  .innerJoin('chunks', 'chunks.id', 'processed_chunks.chunk_id')
                  .where('chunks.workspace_id', '=', id)
                  .select(eb.fn.countAll<number>().as('n'))
                  .as(table)
              : eb
                  .selectFrom(table)
                  .where('workspace_id', '=', id)
                  .select(eb.fn.countAll<number>().as('n'))
                  .as(table),
          ),
        )
        .executeTakeFirstOrThrow()
      return Object.fromEntries(Object.entries(row).map(([table, n]) => [table, Number(n)]))
    },
  }
}

export function mergeConfiguration(stored: string, patch: JsonObject | undefined): string {
  if (patch === undefined) return stored
  return JSON.stringify({ ...parseObject(stored), ...patch })
}
