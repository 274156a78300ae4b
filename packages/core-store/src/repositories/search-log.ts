import { StoreError } from '../store/errors'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** One search, as the caller reports it. */
export interface SearchLogEntry {
  /** What searched: `augment`, `notes`, ... */
  readonly surface: string
  readonly query: string
  readonly candidates: number
  readonly hits: number
  /** Best score returned; null when nothing was (a non-finite score is stored as null). */
  readonly topScore: number | null
  readonly latencyMs: number
}

/** A logged search. */
export interface LoggedSearch extends SearchLogEntry {
  readonly id: number
  readonly workspaceId: string
  readonly createdAt: string
}

/** The search log (`search_log`): one row per query, for stats. */
export interface SearchLogRepository {
  /** Appends one row, stamped now (or `at`). */
  record(workspaceId: string, entry: SearchLogEntry, at?: string): Promise<void>
  /** The workspace's logged searches, oldest first. */
  list(workspaceId: string): Promise<LoggedSearch[]>
}

export function createSearchLogRepository(scope: RepositoryScope): SearchLogRepository {
  const { db } = scope
  return {
    async record(workspaceId, entry, at) {
      requireId(workspaceId, 'workspace id')
      if (typeof entry.surface !== 'string' || typeof entry.query !== 'string')
        throw new StoreError('INVALID_INPUT', 'a search log entry needs a surface and a query')
      await db
        .insertInto('search_log')
        .values({
          workspace_id: workspaceId,
          surface: entry.surface,
          query: entry.query,
          candidates: entry.candidates,
          hits: entry.hits,
          top_score: entry.topScore !== null && Number.isFinite(entry.topScore) ? entry.topScore : null,
          latency_ms: entry.latencyMs,
          created_at: at ?? scope.context.now(),
        })
        .execute()
    },
    async list(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('search_log')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map((row) => ({
        id: row.id,
        workspaceId: row.workspace_id,
        surface: row.surface,
        query: row.query,
        candidates: row.candidates,
        hits: row.hits,
        topScore: row.top_score,
        latencyMs: row.latency_ms,
        createdAt: row.created_at,
      }))
    },
  }
}
