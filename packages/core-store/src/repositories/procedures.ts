import type { Insertable, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { ProceduresTable } from '../kernel/tables'
import { selectByIds } from './by-ids'
import { optionalText, requireIntegers, requireText } from './checks'
import { parseArray, requireId } from './json'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'

/** One step of a procedure. */
export interface ProcedureStep {
  /** 1-based position. */
  readonly order: number
  readonly text: string
  readonly tool?: string
}

/** A step-by-step workflow learned from a session. */
export interface Procedure {
  readonly id: string
  readonly workspaceId: string
  readonly sessionId: string
  readonly name: string
  readonly description: string
  readonly triggerPhrase: string | null
  /** In order, numbered from 1; malformed stored steps are skipped. */
  readonly steps: readonly ProcedureStep[]
  readonly entities: readonly string[]
  readonly chunkIds: readonly number[]
  readonly messageIds: readonly number[]
  readonly createdAt: string
  readonly updatedAt: string
}

/** A procedure row as stored: `steps` is the stored JSON list as it is, `stepsText` its searchable text. */
export interface StoredProcedure extends Omit<Procedure, 'steps' | 'entities'> {
  readonly steps: readonly unknown[]
  readonly stepsText: string
  readonly entities: readonly unknown[]
}

export function toStoredProcedure(row: Selectable<ProceduresTable>): StoredProcedure {
  return {
    id: row.id,
    workspaceId: row.workspace_id,
    sessionId: row.session_id,
    name: row.name,
    description: row.description,
    triggerPhrase: row.trigger_phrase,
    steps: parseArray(row.steps),
    stepsText: row.steps_text,
    entities: parseArray(row.entities),
    chunkIds: parseArray<number>(row.chunk_ids),
    messageIds: parseArray<number>(row.message_ids),
    createdAt: row.created_at,
    updatedAt: row.updated_at,
  }
}

export function fromProcedure(procedure: StoredProcedure): Insertable<ProceduresTable> {
  return {
    id: procedure.id,
    workspace_id: procedure.workspaceId,
    session_id: procedure.sessionId,
    name: procedure.name,
    description: procedure.description,
    trigger_phrase: procedure.triggerPhrase,
    steps: JSON.stringify(procedure.steps),
    steps_text: procedure.stepsText,
    entities: JSON.stringify(procedure.entities),
    chunk_ids: JSON.stringify(procedure.chunkIds),
    message_ids: JSON.stringify(procedure.messageIds),
    created_at: procedure.createdAt,
    updated_at: procedure.updatedAt,
  }
}

/** The procedure as the store hands it out: its steps normalised, without their search text. */
export function toProcedure(row: Selectable<ProceduresTable>): Procedure {
  const { stepsText: _searchText, ...stored } = toStoredProcedure(row)
  return { ...stored, steps: parseProcedureSteps(row.steps), entities: stored.entities as string[] }
}

/**
 * Steps from the stored JSON, tolerating malformed rows: strings and `{ text, order?, tool? }` objects are
 * kept (sorted by their order, else their position, then renumbered from 1); anything else is skipped.
 */
export function parseProcedureSteps(text: string): ProcedureStep[] {
  let raw: unknown
  try {
    raw = JSON.parse(text)
  } catch {
    return []
  }
  if (!Array.isArray(raw)) return []
  const steps: { order: number; text: string; tool?: string }[] = []
  for (const [index, item] of raw.entries()) {
    if (typeof item === 'string') steps.push({ order: index + 1, text: item })
    else if (item && typeof item === 'object' && typeof (item as { text?: unknown }).text === 'string') {
      const { order, text: stepText, tool } = item as { order?: unknown; text: string; tool?: unknown }
      steps.push({
        order: typeof order === 'number' && Number.isFinite(order) ? order : index + 1,
        text: stepText,
        ...(typeof tool === 'string' && tool !== '' ? { tool } : {}),
      })
    }
  }
  steps.sort((a, b) => a.order - b.order)
  return steps.map((step, index) => ({ ...step, order: index + 1 }))
}

/** A new procedure; its searchable step text is built from `steps`. */
export interface NewProcedure {
  readonly id: string
  readonly sessionId: string
  readonly name: string
  readonly description: string
  readonly triggerPhrase?: string | null
  readonly steps: readonly (
    | string
    | { readonly text: string; readonly order?: number; readonly tool?: string }
  )[]
  readonly entities?: readonly string[]
  readonly chunkIds?: readonly number[]
  readonly messageIds?: readonly number[]
}

/** Procedures (`procedures`): ordered steps learned from sessions. */
export interface ProceduresRepository {
  /** The workspace's procedures among `ids`, in no particular order (unknown ids are skipped). */
  getByIds(workspaceId: string, ids: readonly string[]): Promise<Procedure[]>
  /** Every procedure of the workspace, by id. */
  listAll(workspaceId: string): Promise<Procedure[]>
  /**
   * Inserts the procedure, or rewrites the one with its id (keeping its creation time). Full-text search
   * sees the steps as `1. text` lines.
   */
  upsert(workspaceId: string, procedure: NewProcedure): Promise<Procedure>
}

function requireStrings(values: unknown, field: string): readonly string[] {
  if (!Array.isArray(values) || !values.every((v) => typeof v === 'string'))
    throw new StoreError('INVALID_INPUT', `${field} must be an array of strings`)
  return values
}

/** The steps as searchable `order. text` lines (a step without an order takes its position). */
function stepsText(steps: NewProcedure['steps']): string {
  if (!Array.isArray(steps)) throw new StoreError('INVALID_INPUT', 'steps must be an array')
  return steps
    .map((step, index) => {
      if (typeof step === 'string') return `${index + 1}. ${step}`
      if (typeof step?.text !== 'string')
        throw new StoreError('INVALID_INPUT', 'a step must be a string or { text, order?, tool? }')
      return `${step.order ?? index + 1}. ${step.text}`
    })
    .join('\n')
}

export function createProceduresRepository(scope: RepositoryScope): ProceduresRepository {
  const { db, context } = scope
  return {
    async getByIds(workspaceId, ids) {
      requireId(workspaceId, 'workspace id')
      if (ids.length === 0) return []
      return (await selectByIds(scope.engine, db, 'procedures', workspaceId, ids)).map(toProcedure)
    },
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'procedures', workspaceId).orderBy('id').execute()
      return rows.map(toProcedure)
    },
    async upsert(workspaceId, procedure) {
      requireId(workspaceId, 'workspace id')
      const id = requireText(procedure.id, 'id')
      const sessionId = requireId(procedure.sessionId, 'session id')
      if (typeof procedure.name !== 'string' || typeof procedure.description !== 'string')
        throw new StoreError('INVALID_INPUT', 'name and description must be strings')
      const now = context.now()
      const row = {
        name: procedure.name,
        description: procedure.description,
        trigger_phrase: optionalText(procedure.triggerPhrase, 'triggerPhrase'),
        steps_text: stepsText(procedure.steps),
        steps: JSON.stringify(procedure.steps),
        entities: JSON.stringify(requireStrings(procedure.entities ?? [], 'entities')),
        chunk_ids: JSON.stringify(requireIntegers(procedure.chunkIds ?? [], 'chunkIds')),
        message_ids: JSON.stringify(requireIntegers(procedure.messageIds ?? [], 'messageIds')),
        updated_at: now,
      }
      const stored = await db
        .insertInto('procedures')
        .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
        .onConflict((oc) => oc.column('id').doUpdateSet(row))
        .returningAll()
        .executeTakeFirstOrThrow()
      return toProcedure(stored)
    },
  }
}
