import type { StoreScope } from '@hymem/core-store'
import type { ExtractedEpisode, ExtractedProcedure } from '@hymem/extraction'
import { stableId } from './ids'

/** A processed chunk of a session, as episodes and procedures cite it. */
export interface SessionChunk {
  id: number
  text: string
  message_ids: string
  occurred_at: string
  last_message_id: number
}

const messageIdsOf = (chunks: readonly SessionChunk[]) => [
  ...new Set(chunks.flatMap((c) => JSON.parse(c.message_ids) as number[])),
]

/** Upserts a session's episodes (stable ids) and drops the ones over re-read chunks no longer produced. */
export async function writeEpisodes(
  tx: StoreScope,
  workspaceId: string,
  sessionId: string,
  chunks: readonly SessionChunk[],
  episodes: readonly ExtractedEpisode[],
  now: string,
): Promise<number> {
  const byId = new Map(chunks.map((c) => [c.id, c]))
  const covered = new Set(chunks.map((c) => c.id))
  const ids: string[] = []
  for (const episode of episodes) {
    const own = episode.chunkIds.map((id) => byId.get(id)).filter((c): c is SessionChunk => c !== undefined)
    if (own.length === 0) continue
    const id = stableId('ep', workspaceId, sessionId, ...own.map((c) => c.id))
    ids.push(id)
    const row = {
      title: episode.title,
      summary: episode.summary,
      outcome: episode.outcome ?? null,
      entities: JSON.stringify(episode.entities),
      chunk_ids: JSON.stringify(own.map((c) => c.id)),
      message_ids: JSON.stringify(messageIdsOf(own)),
      started_at: own[0]!.occurred_at,
      ended_at: own[own.length - 1]!.occurred_at,
      updated_at: now,
    }
    await tx.db
      .insertInto('episodes')
      .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute()
  }
  // Episodes over the re-read chunks that this extraction no longer produces are replaced.
  const old = await tx.db
    .selectFrom('episodes')
    .select(['id', 'chunk_ids'])
    .where('workspace_id', '=', workspaceId)
    .where('session_id', '=', sessionId)
    .execute()
  const stale = old
    .filter((e) => !ids.includes(e.id) && (JSON.parse(e.chunk_ids) as number[]).some((c) => covered.has(c)))
    .map((e) => e.id)
  if (stale.length > 0 && ids.length > 0)
    await tx.db.deleteFrom('episodes').where('id', 'in', stale).execute()
  return ids.length
}

/** Upserts procedures with steps renumbered 1..n in order; the id is a hash of session and name. */
export async function writeProcedures(
  tx: StoreScope,
  workspaceId: string,
  sessionId: string,
  chunks: readonly SessionChunk[],
  procedures: readonly ExtractedProcedure[],
  now: string,
): Promise<number> {
  let written = 0
  for (const procedure of procedures) {
    const steps = [...procedure.steps]
      .sort((a, b) => a.order - b.order)
      .map((s, i) => ({ ...s, order: i + 1 }))
    if (steps.length === 0) continue
    const sources = chunksMentioning(chunks, [procedure.name, ...steps.map((s) => s.text)])
    const row = {
      name: procedure.name,
      description: procedure.description,
      trigger_phrase: procedure.trigger ?? null,
      steps: JSON.stringify(steps),
      steps_text: steps.map((s) => `${s.order}. ${s.text}`).join('\n'),
      entities: JSON.stringify(procedure.entities),
      chunk_ids: JSON.stringify(sources.map((c) => c.id)),
      message_ids: JSON.stringify(messageIdsOf(sources)),
      updated_at: now,
    }
    const id = stableId('proc', workspaceId, sessionId, procedure.name.trim().toLowerCase())
    await tx.db
      .insertInto('procedures')
      .values({ id, workspace_id: workspaceId, session_id: sessionId, created_at: now, ...row })
      .onConflict((oc) => oc.column('id').doUpdateSet(row))
      .execute()
    written++
  }
  return written
}

/** The chunks whose text shares a distinctive word with the procedure; all of them when none does. */
function chunksMentioning(chunks: readonly SessionChunk[], texts: readonly string[]): SessionChunk[] {
  const words = new Set(
    texts.flatMap((t) => t.toLowerCase().split(/[^\p{L}\p{N}]+/u)).filter((w) => w.length >= 5),
  )
  const hits = chunks.filter((c) =>
    c.text
      .toLowerCase()
      .split(/[^\p{L}\p{N}]+/u)
      .some((w) => words.has(w)),
  )
  return hits.length > 0 ? hits : [...chunks]
}
