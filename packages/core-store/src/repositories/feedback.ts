import { sql } from 'kysely'
import { StoreError } from '../store/errors'
import type { RepositoryScope } from './scope'

/** A triple the user retracted, as recorded for the extractors. */
export interface Retraction {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
  readonly reason: string | null
  readonly createdAt: string
}

/** Extraction feedback (`extraction_feedback`): retracted triples fed back to extractors as negative examples. */
export interface FeedbackRepository {
  /** The most recent retractions, newest first. */
  recentRetractions(workspaceId: string, limit: number): Promise<Retraction[]>
  /** Retractions per UTC day (`YYYY-MM-DD`), oldest day first. */
  retractionsByDay(workspaceId: string): Promise<{ day: string; retracted: number }[]>
}

export function createFeedbackRepository(scope: RepositoryScope): FeedbackRepository {
  const { db } = scope
  return {
    async recentRetractions(workspaceId, limit) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
      const rows = await db
        .selectFrom('extraction_feedback')
        .select(['id', 'subject', 'predicate', 'object', 'reason', 'created_at'])
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map(({ created_at, ...row }) => ({ ...row, createdAt: created_at }))
    },
    async retractionsByDay(workspaceId) {
      const day = sql<string>`substr(created_at, 1, 10)`
      const rows = await db
        .selectFrom('extraction_feedback')
        .select([day.as('day'), (eb) => eb.fn.countAll<number>().as('n')])
        .where('workspace_id', '=', workspaceId)
        .groupBy(day)
        .orderBy(day)
        .execute()
      return rows.map((row) => ({ day: row.day, retracted: Number(row.n) }))
    },
  }
}
