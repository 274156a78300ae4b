import { deleteInWorkspace } from './delete-in'
import type { PurgeTx, Tally } from './tally'
import { sharesId, slices } from './tally'

/** What to forget of the session-level summaries of a workspace. */
export interface SessionScope {
  /** Sessions forgotten whole: all their episodes and procedures go. */
  readonly sessions: ReadonlySet<string>
  readonly chunkIds: ReadonlySet<number>
  readonly messageIds: ReadonlySet<number>
}

/**
 * Removes the episodes and procedures built from the forgotten chunks or messages (or belonging to a
 * forgotten session). Returns the sessions that lost one, and the texts they held.
 */
export async function forgetEpisodesAndProcedures(
  tx: PurgeTx,
  workspaceId: string,
  scope: SessionScope,
  tally: Tally,
): Promise<{ sessions: Set<string>; texts: string[] }> {
  const hit = (row: { session_id: string; chunk_ids: string; message_ids: string }) =>
    scope.sessions.has(row.session_id) ||
    sharesId(row.chunk_ids, scope.chunkIds) ||
    sharesId(row.message_ids, scope.messageIds)
  const sessions = new Set<string>()
  const texts: string[] = []
  const episodes = (
    await tx.db
      .selectFrom('episodes')
      .select(['id', 'session_id', 'chunk_ids', 'message_ids', 'title', 'summary', 'outcome'])
      .where('workspace_id', '=', workspaceId)
      .execute()
  ).filter(hit)
  const episodeIds = episodes.map((e) => e.id)
  const vectors = await tx.vectors.textHashes('episodes', workspaceId, episodeIds)
  await tx.vectors.remove('episodes', workspaceId, episodeIds)
  tally.add('vectors', vectors.size)
  await deleteInWorkspace(tx, 'episodes', workspaceId, 'id', episodeIds)
  tally.add('episodes', episodes.length)
  for (const e of episodes) {
    sessions.add(e.session_id)
    texts.push(e.title, e.summary, e.outcome ?? '')
  }
  const procedures = (
    await tx.db
      .selectFrom('procedures')
      .select(['id', 'session_id', 'chunk_ids', 'message_ids', 'name', 'description', 'steps_text'])
      .where('workspace_id', '=', workspaceId)
      .execute()
  ).filter(hit)
  const procedureIds = procedures.map((p) => p.id)
  await deleteInWorkspace(tx, 'procedures', workspaceId, 'id', procedureIds)
  tally.add('procedures', procedures.length)
  for (const p of procedures) {
    sessions.add(p.session_id)
    texts.push(p.name, p.description, p.steps_text)
  }
  return { sessions, texts }
}

/**
 * Clears the summaries of sessions that lost messages, chunks, episodes or procedures, and rewinds their
 * summary watermark, so the next dream rebuilds episodes, procedures and the summary from what remains.
 * Returns the cleared summaries.
 */
export async function clearSummaries(
  tx: PurgeTx,
  workspaceId: string,
  sessionIds: ReadonlySet<string>,
  tally: Tally,
): Promise<string[]> {
  const texts: string[] = []
  for (const part of slices([...sessionIds])) {
    const rows = await tx.db
      .selectFrom('sessions')
      .select(['id', 'summary'])
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute()
    for (const row of rows) if (row.summary !== null) texts.push(row.summary)
    await tx.db
      .updateTable('sessions')
      .set({ summary: null, summary_message_id: null, summary_updated_at: null })
      .where('workspace_id', '=', workspaceId)
      .where('id', 'in', part)
      .execute()
  }
  tally.add('summariesCleared', texts.length)
  return texts
}
