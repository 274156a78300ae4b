import { sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** A queue total as reported now, for one session or (`sessionId: null`) the whole workspace. */
export interface QueueTotal {
  readonly sessionId: string | null
  readonly total: number
}

/**
 * The highest queue totals reported (`queue_totals`), per session and per workspace: Honcho's queue status
 * counts work since the last cleanup, so a total never shrinks when messages are deleted, and every server on
 * one database holds it at the same value.
 */
export interface QueueTotalsRepository {
  /**
   * Raises each stored total to the one reported now (never lowers it) and returns the stored totals, keyed by
   * session id (`null`: the workspace). One statement, race-free under concurrent servers.
   */
  hold(workspaceId: string, totals: readonly QueueTotal[]): Promise<Map<string | null, number>>
}

export function createQueueTotalsRepository(scope: RepositoryScope): QueueTotalsRepository {
  const { db } = scope
  return {
    async hold(workspaceId, totals) {
      requireId(workspaceId, 'workspace id')
      const highest = new Map<string, number>()
      for (const { sessionId, total } of totals) {
        if (!Number.isSafeInteger(total) || total < 0)
          throw new StoreError('INVALID_INPUT', 'a queue total must be an integer ≥ 0')
        if (sessionId !== null) requireId(sessionId, 'session id')
        const key = sessionId ?? ''
        highest.set(key, Math.max(highest.get(key) ?? 0, total))
      }
      if (highest.size === 0) return new Map()
      const rows = await db
        .insertInto('queue_totals')
        .values([...highest].map(([key, total]) => ({ workspace_id: workspaceId, session_key: key, total })))
        .onConflict((conflict) =>
          conflict.columns(['workspace_id', 'session_key']).doUpdateSet({
            total: sql<number>`CASE WHEN excluded.total > queue_totals.total THEN excluded.total ELSE queue_totals.total END`,
          }),
        )
        .returning(['session_key', 'total'])
        .execute()
      return new Map(rows.map((row) => [row.session_key === '' ? null : row.session_key, Number(row.total)]))
    },
  }
}
