import type { Selectable } from 'kysely'
import type { ProceduresTable } from '../schema/tables'
import { StoreError } from '../store/errors'
import { optionalText, requireIntegers, requireText } from './checks'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'

/** One step of a procedure. */
export interface ProcedureStep {
  /** 1-based position. */
  readonly order: number
  readonly text: string
  readonly tool?: string
}

/** A named, ordered how-to learned from a session. */
export interface Procedure {
  readonly id: string
  readonly workspaceId: string
  readonly sessionId: string
  readonly name: string
  readonly description: string
  /** The phrase that calls for it, when known. */
  readonly trigger: string | null
  readonly steps: readonly ProcedureStep[]
  readonly entities: readonly string[]
  readonly chunkIds: readonly number[]
  readonly messageIds: readonly number[]
  readonly createdAt: string
  readonly updatedAt: string
}

/** A procedure as extraction produces it; its id is chosen by the caller (stable across re-extraction). */
export interface NewProcedure {
  readonly id: string
  readonly sessionId: string
  readonly name: string
  readonly description: string
  readonly trigger: string | null
  /** Stored in the given order; full-text search sees them as `1. text` lines. */
  readonly steps: readonly ProcedureStep[]
  readonly entities: readonly string[]
  readonly chunkIds: readonly number[]
  readonly messageIds: readonly number[]
}

export function toProcedure(row: Selectable<ProceduresTable>): Procedure {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    name: row.name,
    description: row.description,
    trigger: row.trigger_phrase,
    steps: parseArray<ProcedureStep>(row.steps),
    entities: parseArray<string>(row.entities),
    chunkIds: parseArray<number>(row.chunk_ids),
    messageIds: parseArray<number>(row.message_ids),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

/** Procedures (`procedures`): named, ordered steps learned from sessions. */
export interface ProceduresRepository {
  /** Every procedure of the workspace, by id. */
  list(workspaceId: string): Promise<Procedure[]>
  /** Inserts the procedure, or rewrites the one with its id (keeping its creation time). */
  upsert(workspaceId: string, procedure: NewProcedure): Promise<void>
}

function requireSteps(steps: unknown): readonly ProcedureStep[] {
  const valid =
    Array.isArray(steps) &&
    steps.every(
      (s) =>
        typeof s === 'object' &&
        s !== null &&
        Number.isSafeInteger((s as ProcedureStep).order) &&
        typeof (s as ProcedureStep).text === 'string',
    )
  if (!valid) throw new StoreError('INVALID_INPUT', 'steps must be an array of { order, text, tool? }')
  return steps as readonly ProcedureStep[]
}

function requireStrings(values: unknown, field: string): readonly string[] {
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw new StoreError('INVALID_INPUT', `${field} must be an array of strings`)
  return values
}

export function createProceduresRepository(scope: RepositoryScope): ProceduresRepository {
  const { db, context } = scope
  return {
    async list(workspaceId) {
      requireId(workspaceId, 'workspace id')
      const rows = await db
        .selectFrom('procedures')
        .selectAll()
        .where('workspace_id', '=', workspaceId)
        .orderBy('id')
        .execute()
      return rows.map(toProcedure)
    },
    async upsert(workspaceId, procedure) {
      requireId(workspaceId, 'workspace id')
      const id = requireText(procedure.id, 'id')
      const sessionId = requireId(procedure.sessionId, 'session id')
      if (typeof procedure.name !== 'string' || typeof procedure.description !== 'string')
        throw new StoreError('INVALID_INPUT', 'name and description must be strings')
      const steps = requireSteps(procedure.steps)
      const now = context.now()
      const row = {
        name: procedure.name,
        description: procedure.description,
        trigger_phrase: optionalText(procedure.trigger, 'trigger'),
        steps: JSON.stringify(steps),
        steps_text: steps.map((s) => `${s.order}. ${s.text}`).join('\n'),
        entities: JSON.stringify(requireStrings(procedure.entities, 'entities')),
        chunk_ids: JSON.stringify(requireIntegers(procedure.chunkIds, 'chunkIds')),
        message_ids: JSON.stringify(requireIntegers(procedure.messageIds, 'messageIds')),
        updated_at: now,
      }
      await scope.write((tx) =>
        tx
          .insertInto('procedures')
          .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
          .onConflict((oc) => oc.column('id').doUpdateSet(row))
          .execute(),
      )
    },
  }
}
