import { sql } from 'kysely'
import { StoreError } from '../kernel/errors'
import { optionalText, requireText } from './checks'
import { requireId } from './json'
import type { RepositoryScope } from './scope'

/** A retracted triple, kept so extraction never produces it again. */
export interface Feedback {
  readonly id: number
  readonly subject: string
  readonly predicate: string
  readonly object: string
  /** The text the triple was extracted from, when known. */
  readonly chunkText: string | null
  readonly reason: string | null
  readonly createdAt: string
}

/** Extraction feedback (`extraction_feedback`): retracted triples fed back to extraction as negative examples. */
export interface FeedbackRepository {
  /** The most recent feedback first; every row when `limit` is omitted. */
  recent(workspaceId: string, limit?: number): Promise<Feedback[]>
  /** Records a retracted triple. */
  record(
    workspaceId: string,
    feedback: {
      subject: string
      predicate: string
      object: string
      chunkText: string | null
      reason: string | null
    },
  ): Promise<void>
  /** Retractions per UTC day (`YYYY-MM-DD`), oldest day first. */
  retractionsByDay(workspaceId: string): Promise<{ day: string; retracted: number }[]>
}

export function createFeedbackRepository(scope: RepositoryScope): FeedbackRepository {
  const { db, context } = scope
  return {
    async recent(workspaceId, limit) {
      requireId(workspaceId, 'workspace id')
      if (limit !== undefined && (!Number.isSafeInteger(limit) || limit < 0)) {
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 0')
      }
      if (limit === 0) return []
      let query = db
        .selectFrom('extraction_feedback')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('created_at', 'desc')
        .orderBy('id', 'desc')
      if (limit !== undefined) query = query.limit(limit)
      const rows = await query.execute()
      return rows.map((row) => ({
        id: row.id,
        subject: row.subject,
        predicate: row.predicate,
        object: row.object,
        chunkText: row.chunk_text,
        reason: row.reason,
        createdAt: row.created_at,
      }))
    },
    async record(workspaceId, feedback) {
      requireId(workspaceId, 'workspace id')
      const values = {
        workspace_id: workspaceId,
        subject: requireText(feedback.subject, 'subject'),
        predicate: requireText(feedback.predicate, 'predicate'),
        object: requireText(feedback.object, 'object'),
        chunk_text: optionalText(feedback.chunkText, 'chunkText'),
        reason: optionalText(feedback.reason, 'reason'),
        created_at: context.now(),
      }
      await db.insertInto('extraction_feedback').values(values).execute()
    },
    async retractionsByDay(workspaceId) {
      requireId(workspaceId, 'workspace id')
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
