import { deleteInWorkspace } from './delete-in'
import type { PurgeTx, Tally } from './tally'
import { sharesId, slices } from './tally'

/** Removes chunks with their vectors; their mentions and processing marks go with them. */
export async function removeChunks(
  tx: PurgeTx,
  workspaceId: string,
  ids: readonly number[],
  tally: Tally,
): Promise<void> {
  if (ids.length === 0) return
  const vectors = await tx.vectors.textHashes('chunks', workspaceId, ids)
  await tx.vectors.remove('chunks', workspaceId, ids)
  tally.add('vectors', vectors.size)
  for (const part of slices(ids)) {
    const mentions = await tx.db
      .selectFrom('entity_mentions')
      .select((eb) => eb.fn.countAll<number>().as('n'))
      .where('workspace_id', '=', workspaceId)
      .where('chunk_id', 'in', part)
      .executeTakeFirstOrThrow()
    tally.add('mentions', Number(mentions.n))
    tally.add('chunks', await deleteInWorkspace(tx, 'chunks', workspaceId, 'id', part))
  }
}

/** The messages' contents and public ids, read before they go. */
export async function readMessages(
  tx: PurgeTx,
  workspaceId: string,
  ids: readonly number[],
): Promise<{ contents: string[]; publicIds: Set<string>; sessions: Set<string> }> {
  const contents: string[] = []
  const publicIds = new Set<string>()
  const sessions = new Set<string>()
  for (const part of slices(ids)) {
    const rows = await tx.db
      .selectFrom('messages')
      .select(['public_id', 'session_id', 'content'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute()
    for (const row of rows) {
      contents.push(row.content)
      publicIds.add(row.public_id)
      sessions.add(row.session_id)
    }
  }
  return { contents, publicIds, sessions }
}

/** Removes messages (their full-text rows go with them, by trigger). */
export async function removeMessages(
  tx: PurgeTx,
  workspaceId: string,
  ids: readonly number[],
  tally: Tally,
): Promise<void> {
  tally.add('messages', await deleteInWorkspace(tx, 'messages', workspaceId, 'id', ids))
}

/** Which notes to forget. */
export interface NoteSelection {
  readonly ids?: readonly string[]
  /** Notes recorded in this session. */
  readonly sessionId?: string
  /** Notes citing any of these sources (public message ids). */
  readonly sources?: ReadonlySet<string>
}

/**
 * Removes the selected notes with their vectors, then the notes derived from a removed note (citing it as a
 * source), until none is left. Returns their texts.
 */
export async function forgetNotes(
  tx: PurgeTx,
  workspaceId: string,
  selection: NoteSelection,
  tally: Tally,
): Promise<string[]> {
  const all = await tx.db
    .selectFrom('notes')
    .select(['id', 'session_id', 'source_ids', 'description', 'content'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  const chosen = new Set(selection.ids ?? [])
  const sources = new Set<string>(selection.sources ?? [])
  for (const note of all) {
    if (selection.sessionId !== undefined && note.session_id === selection.sessionId) chosen.add(note.id)
  }
  for (let grew = true; grew; ) {
    grew = false
    for (const id of chosen) sources.add(id)
    for (const note of all) {
      if (!chosen.has(note.id) && sharesId(note.source_ids, sources)) {
        chosen.add(note.id)
        grew = true
      }
    }
  }
  const doomed = all.filter((note) => chosen.has(note.id))
  if (doomed.length === 0) return []
  const ids = doomed.map((note) => note.id)
  const vectors = await tx.vectors.textHashes('notes', workspaceId, ids)
  await tx.vectors.remove('notes', workspaceId, ids)
  tally.add('vectors', vectors.size)
  await deleteInWorkspace(tx, 'notes', workspaceId, 'id', ids)
  tally.add('notes', doomed.length)
  return doomed.flatMap((note) => [note.description, note.content])
}

/**
 * Removes extraction-feedback rows that quote a forgotten chunk, or that name a forgotten fact's triple.
 */
export async function forgetFeedback(
  tx: PurgeTx,
  workspaceId: string,
  chunkTexts: readonly string[],
  triples: readonly { subject: string; predicate: string; object: string }[],
  tally: Tally,
): Promise<void> {
  const quoted = new Set(chunkTexts)
  const named = new Set(triples.map((t) => JSON.stringify([t.subject, t.predicate, t.object])))
  if (quoted.size === 0 && named.size === 0) return
  const rows = await tx.db
    .selectFrom('extraction_feedback')
    .select(['id', 'subject', 'predicate', 'object', 'chunk_text'])
    .where('workspace_id', '=', workspaceId)
    .execute()
  const doomed = rows
    .filter(
      (row) =>
        (row.chunk_text !== null && quoted.has(row.chunk_text)) ||
        named.has(JSON.stringify([row.subject, row.predicate, row.object])),
    )
    .map((row) => row.id)
  tally.add('feedback', await deleteInWorkspace(tx, 'extraction_feedback', workspaceId, 'id', doomed))
}

/**
 * Drops the LLM responses that may have seen the forgotten content. The cache is keyed by a hash of the
 * prompt, so it cannot name a chunk: every response written since the first forgotten chunk was made goes
 * (the cache only saves tokens when a dream replays a prompt).
 */
export async function dropLlmCacheSince(tx: PurgeTx, since: string | null, tally: Tally): Promise<void> {
  if (since === null) return
  const result = await tx.db.deleteFrom('llm_cache').where('created_at', '>=', since).executeTakeFirst()
  tally.add('llmCache', Number(result.numDeletedRows))
}
