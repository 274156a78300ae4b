import { cosineSimilarity, type StoreScope } from '@hymem/core-store'
import { HyMemError } from '../errors'
import { textHash } from '../text-hash'
import type { RememberInput } from '../types'
import {
  embedOrNull,
  type NotesContext,
  optionalId,
  optionalNumber,
  optionalObject,
  requireContent,
  requireDescription,
} from './context'
import { type NoteRow, normaliseContent, noteText, toNote } from './rows'
import type { Note } from './types'

const DEDUPE_CANDIDATES = 5

/**
 * Saves an explicit note. Two gates decide whether it updates an existing note instead of inserting: the
 * combined description + content embedding must clear `dedupeThreshold` AND the contents alone must clear
 * `dedupeContentThreshold`. Without embeddings only an identical normalised content counts. Failing a gate
 * errs toward a duplicate (recoverable) rather than a lost fact.
 */
export async function rememberNote(
  context: NotesContext,
  workspaceId: string,
  input: RememberInput,
): Promise<{ note: Note; deduplicated: boolean }> {
  if (typeof input !== 'object' || input === null)
    throw new HyMemError('INVALID_INPUT', 'remember needs an object')
  const description = requireDescription(input.description)
  const content = requireContent(input.content)
  const importance = optionalNumber(input.importance, 'importance', 0, 1_000_000) ?? 1
  const observerId = optionalId(input.observerId, 'observerId')
  const observedId = optionalId(input.observedId, 'observedId')
  const sessionId = optionalId(input.sessionId, 'sessionId')
  const level = optionalId(input.level, 'level') ?? 'explicit'
  const metadata = optionalObject(input.metadata, 'metadata') ?? {}
  const sourceIds = input.sourceIds ?? []
  if (!Array.isArray(sourceIds) || sourceIds.some((id) => typeof id !== 'string')) {
    throw new HyMemError('INVALID_INPUT', 'sourceIds must be an array of strings')
  }

  const { store, embeddings } = context
  const text = noteText(description, content)
  const vectors = await embedOrNull(context, [text, content], 'note')
  const combined = vectors?.[0]
  const contentVector = vectors?.[1]
  const target =
    combined && contentVector && embeddings
      ? await semanticDuplicate(context, workspaceId, combined, contentVector, observerId, observedId)
      : await exactDuplicate(context, workspaceId, content, observerId, observedId)

  const now = store.context.now()
  const note = await store.transaction(async (tx) => {
    await tx.workspaces.getOrCreate(workspaceId)
    let id: string
    if (target) {
      id = target.id
      const sources = [...new Set([...parseStrings(target.source_ids), ...sourceIds])]
      await tx.db
        .updateTable('notes')
        .set({
          description,
          content,
          importance: Math.max(target.importance, importance),
          times_derived: target.times_derived + 1,
          source_ids: JSON.stringify(sources),
          metadata: JSON.stringify({ ...parseObject(target.metadata), ...metadata }),
          updated_at: now,
          last_accessed_at: now,
        })
        .where('id', '=', id)
        .execute()
    } else {
      id = store.context.newId()
      await tx.db
        .insertInto('notes')
        .values({
          id,
          workspace_id: workspaceId,
          description,
          content,
          importance,
          observer_id: observerId,
          observed_id: observedId,
          session_id: sessionId,
          level,
          source_ids: JSON.stringify(sourceIds),
          metadata: JSON.stringify(metadata),
          created_at: now,
          updated_at: now,
          last_accessed_at: now,
        })
        .execute()
    }
    if (combined && embeddings) {
      await tx.vectors.upsert(
        'notes',
        [{ id, workspaceId, vector: combined, textHash: textHash(text) }],
        embeddings.model,
      )
    }
    return readNote(tx, id)
  })
  context.log({
    kind: 'note',
    level: 'debug',
    action: target ? 'deduplicated' : 'inserted',
    workspaceId,
    ids: [note.id],
  })
  return { note, deduplicated: target !== null }
}

async function semanticDuplicate(
  context: NotesContext,
  workspaceId: string,
  combined: Float32Array,
  contentVector: Float32Array,
  observerId: string | null,
  observedId: string | null,
): Promise<NoteRow | null> {
  const { store, embeddings, config } = context
  if (!embeddings) return null
  const hits = await store.vectors.nearest('notes', combined, {
    workspaceId,
    k: DEDUPE_CANDIDATES,
    model: embeddings.model,
  })
  const close = hits.filter((hit) => hit.similarity >= config.dedupeThreshold)
  if (close.length === 0) return null
  const rows = await activeNotes(
    context,
    workspaceId,
    close.map((hit) => String(hit.id)),
    observerId,
    observedId,
  )
  if (rows.length === 0) return null
  const contents = await embedOrNull(
    context,
    rows.map((row) => row.content),
    'note-dedupe',
  )
  if (!contents) return null
  const byId = new Map(rows.map((row, i) => [row.id, { row, vector: contents[i] }]))
  for (const hit of close) {
    const candidate = byId.get(String(hit.id))
    if (
      candidate?.vector &&
      cosineSimilarity(contentVector, candidate.vector) >= config.dedupeContentThreshold
    ) {
      return candidate.row
    }
  }
  return null
}

async function exactDuplicate(
  context: NotesContext,
  workspaceId: string,
  content: string,
  observerId: string | null,
  observedId: string | null,
): Promise<NoteRow | null> {
  const wanted = normaliseContent(content)
  const rows = await pairQuery(context, workspaceId, observerId, observedId)
    .orderBy('updated_at', 'desc')
    .execute()
  return rows.find((row) => normaliseContent(row.content) === wanted) ?? null
}

function pairQuery(
  context: NotesContext,
  workspaceId: string,
  observerId: string | null,
  observedId: string | null,
) {
  return context.store.db
    .selectFrom('notes')
    .selectAll()
    .where('workspace_id', '=', workspaceId)
    .where('archived_at', 'is', null)
    .where('observer_id', observerId === null ? 'is' : '=', observerId)
    .where('observed_id', observedId === null ? 'is' : '=', observedId)
}

async function activeNotes(
  context: NotesContext,
  workspaceId: string,
  ids: readonly string[],
  observerId: string | null,
  observedId: string | null,
): Promise<NoteRow[]> {
  if (ids.length === 0) return []
  return pairQuery(context, workspaceId, observerId, observedId).where('id', 'in', ids).execute()
}

export async function readNote(scope: Pick<StoreScope, 'db'>, id: string): Promise<Note> {
  const row = await scope.db.selectFrom('notes').selectAll().where('id', '=', id).executeTakeFirstOrThrow()
  return toNote(row)
}

function parseStrings(text: string): string[] {
  try {
    const value: unknown = JSON.parse(text)
    return Array.isArray(value) ? value.filter((item): item is string => typeof item === 'string') : []
  } catch {
    return []
  }
}

function parseObject(text: string): Record<string, unknown> {
  try {
    const value: unknown = JSON.parse(text)
    return value && typeof value === 'object' && !Array.isArray(value)
      ? (value as Record<string, unknown>)
      : {}
  } catch {
    return {}
  }
}
