import type { Chunk, StoreScope } from '@hymem/core-store'
import type { ExtractedEpisode, ExtractedProcedure } from '@hymem/extraction'
import { stableId } from './ids'

const messageIdsOf = (chunks: readonly Chunk[]) => [...new Set(chunks.flatMap((c) => c.messageIds))]

/** A custom extractor's entity list, without the items that are not names (the store refuses those). */
const strings = (values: unknown): string[] =>
  Array.isArray(values) ? values.filter((v): v is string => typeof v === 'string') : []

/** Upserts a session's episodes (stable ids) and drops the ones over re-read chunks no longer produced. */
export async function writeEpisodes(
  tx: StoreScope,
  workspaceId: string,
  sessionId: string,
  chunks: readonly Chunk[],
  episodes: readonly ExtractedEpisode[],
): Promise<number> {
  const byId = new Map(chunks.map((c) => [c.id, c]))
  const covered = new Set(chunks.map((c) => c.id))
  const ids: string[] = []
  for (const episode of episodes) {
    const own = episode.chunkIds.map((id) => byId.get(id)).filter((c): c is Chunk => c !== undefined)
    if (own.length === 0) continue
    const id = stableId('ep', workspaceId, sessionId, ...own.map((c) => c.id))
    ids.push(id)
    await tx.episodes.upsert(workspaceId, {
      id,
      sessionId,
      title: episode.title,
      summary: episode.summary,
      outcome: episode.outcome ?? null,
      entities: strings(episode.entities),
      chunkIds: own.map((c) => c.id),
      messageIds: messageIdsOf(own),
      startedAt: own[0]!.occurredAt,
      endedAt: own[own.length - 1]!.occurredAt,
    })
  }
  // Episodes over the re-read chunks that this extraction no longer produces are replaced.
  const old = await tx.episodes.listBySession(workspaceId, sessionId)
  const stale = old
    .filter((e) => !ids.includes(e.id) && e.chunkIds.some((c) => covered.has(c)))
    .map((e) => e.id)
  if (stale.length > 0 && ids.length > 0) await tx.episodes.delete(workspaceId, stale)
  return ids.length
}

/** Upserts procedures with steps renumbered 1..n in order; the id is a hash of session and name. */
export async function writeProcedures(
  tx: StoreScope,
  workspaceId: string,
  sessionId: string,
  chunks: readonly Chunk[],
  procedures: readonly ExtractedProcedure[],
): Promise<number> {
  let written = 0
  for (const procedure of procedures) {
    const steps = [...procedure.steps]
      .sort((a, b) => a.order - b.order)
      .map((s, i) => ({ ...s, order: i + 1 }))
    if (steps.length === 0) continue
    const sources = chunksMentioning(chunks, [procedure.name, ...steps.map((s) => s.text)])
    await tx.procedures.upsert(workspaceId, {
      id: stableId('proc', workspaceId, sessionId, procedure.name.trim().toLowerCase()),
      sessionId,
      name: procedure.name,
      description: procedure.description,
      triggerPhrase: procedure.trigger ?? null,
      steps,
      entities: strings(procedure.entities),
      chunkIds: sources.map((c) => c.id),
      messageIds: messageIdsOf(sources),
    })
    written++
  }
  return written
}

/** The chunks whose text shares a distinctive word with the procedure; all of them when none does. */
function chunksMentioning(chunks: readonly Chunk[], texts: readonly string[]): Chunk[] {
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
