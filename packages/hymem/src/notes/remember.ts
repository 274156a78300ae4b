import { cosineSimilarity, type NotePair } from '@hymem/core-store'
import { HyMemError } from '../errors'
import { textHash } from '../text-hash'
import {
  embedOrNull,
  type NotesContext,
  optionalId,
  optionalNumber,
  optionalObject,
  requireContent,
  requireDescription,
} from './context'
import { normaliseContent, noteText } from './note-text'
import type { Note, RememberInput } from './types'

const DEDUPE_CANDIDATES = 5

/**
 * Saves an explicit note. Two gates decide whether it updates an existing note instead of inserting: the
 * combined description + content embedding must clear `dedupeThreshold` AND the contents alone must clear
 * `dedupeContentThreshold`. Without embeddings, or with `dedupe: 'exact'`, only an identical normalised
 * content counts. Failing a gate errs toward a duplicate (recoverable) rather than a lost fact.
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
  const dedupe = input.dedupe ?? 'similar'
  if (dedupe !== 'similar' && dedupe !== 'exact') {
    throw new HyMemError('INVALID_INPUT', "dedupe must be 'similar' or 'exact'")
  }
  if (!Array.isArray(sourceIds) || sourceIds.some((id) => typeof id !== 'string')) {
    throw new HyMemError('INVALID_INPUT', 'sourceIds must be an array of strings')
  }

  const { store, embeddings } = context
  const text = noteText(description, content)
  const vectors = await embedOrNull(context, [text, content], 'note')
  const combined = vectors?.[0]
  const contentVector = vectors?.[1]
  const pair = { observerId, observedId }
  const target =
    dedupe === 'exact'
      ? await exactDuplicate(context, workspaceId, content, pair, { level, sessionId })
      : combined && contentVector && embeddings
        ? await semanticDuplicate(context, workspaceId, combined, contentVector, pair)
        : await exactDuplicate(context, workspaceId, content, pair)

  const note = await store.transaction(async (tx) => {
    await tx.workspaces.getOrCreate(workspaceId)
    const stored = target
      ? await tx.notes.restate(workspaceId, target.id, {
          // An exact re-statement reinforces the note as first written (Honcho keeps the existing row).
          description: dedupe === 'exact' ? target.description : description,
          content: dedupe === 'exact' ? target.content : content,
          importance: Math.max(target.importance, importance),
          sourceIds: [...new Set([...target.sourceIds, ...sourceIds])],
          metadata: { ...target.metadata, ...metadata },
        })
      : await tx.notes.insert(workspaceId, {
          description,
          content,
          importance,
          observerId,
          observedId,
          sessionId,
          level,
          sourceIds,
          metadata,
        })
    const keepsText = target !== null && dedupe === 'exact'
    if (combined && embeddings && !keepsText) {
      await tx.vectors.upsert(
        'notes',
        [{ id: stored.id, workspaceId, vector: combined, textHash: textHash(text) }],
        embeddings.model,
      )
    }
    return stored
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
  pair: NotePair,
): Promise<Note | null> {
  const { store, embeddings, config } = context
  if (!embeddings) return null
  const hits = await store.vectors.nearest('notes', combined, {
    workspaceId,
    k: DEDUPE_CANDIDATES,
    model: embeddings.model,
  })
  const close = hits.filter((hit) => hit.similarity >= config.dedupeThreshold)
  if (close.length === 0) return null
  const rows = await context.store.notes.activeForPair(
    workspaceId,
    pair,
    close.map((hit) => String(hit.id)),
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
  pair: NotePair,
  scope?: { readonly level: string; readonly sessionId: string | null },
): Promise<Note | null> {
  const wanted = normaliseContent(content)
  const notes = await context.store.notes.activeForPair(workspaceId, pair)
  return (
    notes.find(
      (note) =>
        normaliseContent(note.content) === wanted &&
        (!scope || (note.level === scope.level && note.sessionId === scope.sessionId)),
    ) ?? null
  )
}
