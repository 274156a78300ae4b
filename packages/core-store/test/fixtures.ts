import { builderOf } from '../src/store/builder'
import type { Store, StoreScope } from '../src/store/types'

/** Inserts a chunk row (and its session) and returns its id. */
export async function addChunk(
  store: Store | StoreScope,
  workspaceId: string,
  text: string,
  sessionId = 's',
): Promise<number> {
  await store.sessions.getOrCreate(workspaceId, sessionId)
  const last = await builderOf(store)
    .selectFrom('chunks')
    .select((eb) => eb.fn.max('last_message_id').as('n'))
    .executeTakeFirst()
  const next = Number(last?.n ?? 0) + 1
  const result = await builderOf(store)
    .insertInto('chunks')
    .values({
      workspace_id: workspaceId,
      session_id: sessionId,
      text,
      salience_reason: 'test',
      message_ids: JSON.stringify([next]),
      first_message_id: next,
      last_message_id: next,
      occurred_at: '2026-03-01T10:00:00.000Z',
      created_at: '2026-03-01T10:00:00.000Z',
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return result.id
}

export async function addEdge(
  store: Store | StoreScope,
  workspaceId: string,
  triple: [string, string, string],
): Promise<number> {
  const now = '2026-03-01T10:00:00.000Z'
  const result = await builderOf(store)
    .insertInto('knowledge_graph')
    .values({
      workspace_id: workspaceId,
      subject: triple[0],
      predicate: triple[1],
      object: triple[2],
      first_seen: now,
      last_seen: now,
      last_reinforced: now,
      valid_from: now,
    })
    .returning('id')
    .executeTakeFirstOrThrow()
  return result.id
}

export async function addEpisode(
  store: Store | StoreScope,
  workspaceId: string,
  id: string,
  title: string,
  summary: string,
) {
  const now = '2026-03-01T10:00:00.000Z'
  await builderOf(store)
    .insertInto('episodes')
    .values({
      id,
      workspace_id: workspaceId,
      session_id: 's',
      title,
      summary,
      started_at: now,
      ended_at: now,
      created_at: now,
      updated_at: now,
    })
    .execute()
}

export async function addNote(
  store: Store | StoreScope,
  workspaceId: string,
  id: string,
  description: string,
  content: string,
  sessionId: string | null = null,
) {
  const now = '2026-03-01T10:00:00.000Z'
  await builderOf(store)
    .insertInto('notes')
    .values({
      id,
      workspace_id: workspaceId,
      description,
      content,
      session_id: sessionId,
      created_at: now,
      updated_at: now,
      last_accessed_at: now,
    })
    .execute()
}

export async function addProcedure(
  store: Store | StoreScope,
  workspaceId: string,
  id: string,
  name: string,
  stepsText: string,
  sessionId = 's',
) {
  const now = '2026-03-01T10:00:00.000Z'
  await builderOf(store)
    .insertInto('procedures')
    .values({
      id,
      workspace_id: workspaceId,
      session_id: sessionId,
      name,
      description: `how to ${name}`,
      steps_text: stepsText,
      created_at: now,
      updated_at: now,
    })
    .execute()
}

/** A unit-length Float32Array from plain numbers. */
export function vec(...values: number[]): Float32Array {
  const v = Float32Array.from(values)
  const n = Math.hypot(...values)
  return n === 0 ? v : v.map((x) => x / n)
}
