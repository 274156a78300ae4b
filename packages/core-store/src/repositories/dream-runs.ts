import type { Insertable, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { DreamRunsTable } from '../kernel/tables'
import { parseArray, parseObject, requireId } from './json'
import type { RepositoryScope } from './scope'
import type { DreamRun, DreamRunOutcome, DreamRunsRepository, JsonObject } from './types'
import { selectInWorkspace } from './workspace-rows'

const OUTCOME_STATUSES: readonly DreamRunOutcome['status'][] = ['ok', 'failed', 'aborted']
const DEFAULT_RECENT = 20

export function toDreamRun(row: Selectable<DreamRunsTable>): DreamRun {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    status: row.status,
    skipReason: row.skip_reason,
    extractor: row.extractor,
    promptVersion: row.prompt_version,
    chunksCreated: row.chunks_created,
    chunksProcessed: row.chunks_processed,
    edgesUpserted: row.edges_upserted,
    llmCalls: row.llm_calls,
    promptTokens: row.prompt_tokens,
    completionTokens: row.completion_tokens,
    counts: parseObject(row.counts) as Record<string, number>,
    timings: parseObject(row.timings) as Record<string, number>,
    errors: parseArray<string>(row.errors),
    startedAt: row.started_at,
    finishedAt: row.finished_at,
  }
}

/** A dream run as a backup carries it: without its store-local id, its JSON columns kept as stored. */
export interface StoredDreamRun extends Omit<DreamRun, 'id' | 'counts' | 'timings' | 'errors'> {
  readonly counts: JsonObject
  readonly timings: JsonObject
  readonly errors: readonly unknown[]
}

export function fromDreamRun(run: StoredDreamRun): Insertable<DreamRunsTable> {
  return {
    workspace_id: run.workspaceId,
    status: run.status,
    skip_reason: run.skipReason,
    extractor: run.extractor,
    prompt_version: run.promptVersion,
    chunks_created: run.chunksCreated,
    chunks_processed: run.chunksProcessed,
    edges_upserted: run.edgesUpserted,
    llm_calls: run.llmCalls,
    prompt_tokens: run.promptTokens,
    completion_tokens: run.completionTokens,
    counts: JSON.stringify(run.counts),
    timings: JSON.stringify(run.timings),
    errors: JSON.stringify(run.errors),
    started_at: run.startedAt,
    finished_at: run.finishedAt,
  }
}

function count(value: number | undefined, field: string): number {
  const n = value ?? 0
  if (!Number.isInteger(n) || n < 0)
    throw new StoreError('INVALID_INPUT', `${field} must be a non-negative integer`)
  return n
}

function numbers(value: Record<string, number> | undefined, field: string): string {
  const record = value ?? {}
  for (const [key, n] of Object.entries(record)) {
    if (typeof n !== 'number' || !Number.isFinite(n)) {
      throw new StoreError('INVALID_INPUT', `${field}.${key} must be a finite number`)
    }
  }
  return JSON.stringify(record)
}

export function createDreamRunsRepository(scope: RepositoryScope): DreamRunsRepository {
  const { db, context } = scope

  return {
    async start(workspaceId, init) {
      requireId(workspaceId, 'workspace id')
      const result = await scope.write((tx) =>
        tx
          .insertInto('dream_runs')
          .values({
            workspace_id: workspaceId,
            status: 'running',
            extractor: init.extractor,
            prompt_version: init.promptVersion,
            started_at: context.now(),
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
      )
      return result.id
    },
    async finish(workspaceId, id, outcome) {
      requireId(workspaceId, 'workspace id')
      if (!OUTCOME_STATUSES.includes(outcome.status)) {
        throw new StoreError(
          'INVALID_INPUT',
          `a finished run's status must be one of ${OUTCOME_STATUSES.join(', ')}`,
        )
      }
      const errors = outcome.errors ?? []
      if (!errors.every((e) => typeof e === 'string'))
        throw new StoreError('INVALID_INPUT', 'errors must be strings')
      const values = {
        status: outcome.status,
        chunks_created: count(outcome.chunksCreated, 'chunksCreated'),
        chunks_processed: count(outcome.chunksProcessed, 'chunksProcessed'),
        edges_upserted: count(outcome.edgesUpserted, 'edgesUpserted'),
        llm_calls: count(outcome.llmCalls, 'llmCalls'),
        prompt_tokens: count(outcome.promptTokens, 'promptTokens'),
        completion_tokens: count(outcome.completionTokens, 'completionTokens'),
        counts: numbers(outcome.counts, 'counts'),
        timings: numbers(outcome.timings, 'timings'),
        errors: JSON.stringify(errors),
        finished_at: context.now(),
      }
      await scope.write(async (tx) => {
        const result = await tx
          .updateTable('dream_runs')
          .set(values)
          .where('workspace_id', '=', workspaceId)
          .where('id', '=', id)
          .executeTakeFirst()
        if (Number(result.numUpdatedRows) === 0)
          throw new StoreError('NOT_FOUND', `dream run ${id} not found`)
      })
    },
    async recordSkip(workspaceId, reason) {
      requireId(workspaceId, 'workspace id')
      if (typeof reason !== 'string' || reason.length === 0) {
        throw new StoreError('INVALID_INPUT', 'a skip reason must be a non-empty string')
      }
      const now = context.now()
      const result = await scope.write((tx) =>
        tx
          .insertInto('dream_runs')
          .values({
            workspace_id: workspaceId,
            status: 'skipped',
            skip_reason: reason,
            started_at: now,
            finished_at: now,
          })
          .returning('id')
          .executeTakeFirstOrThrow(),
      )
      return result.id
    },
    async recent(workspaceId, limit = DEFAULT_RECENT) {
      if (!Number.isInteger(limit) || limit < 1)
        throw new StoreError('INVALID_INPUT', 'limit must be an integer ≥ 1')
      const rows = await selectInWorkspace(db, 'dream_runs', workspaceId)
        .orderBy('started_at', 'desc')
        .orderBy('id', 'desc')
        .limit(limit)
        .execute()
      return rows.map(toDreamRun)
    },
    async listRunning(workspaceId) {
      const rows = await selectInWorkspace(db, 'dream_runs', workspaceId)
        .where('status', '=', 'running')
        .orderBy('id')
        .execute()
      return rows.map(toDreamRun)
    },
  }
}
