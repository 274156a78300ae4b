import type { Store } from '@hymem/core-store'
import type { AugmentHit, EpisodeHit, NoteHit, ProcedureHit } from './types'

/** The time-bound parts of an augment answer. */
export interface TimedParts {
  readonly hits: AugmentHit[]
  readonly episodes: EpisodeHit[]
  readonly procedures: ProcedureHit[]
  readonly notes: NoteHit[]
}

/**
 * Keeps what HyMem held at `asOf`: messages and chunks of that time or earlier, and episodes, procedures and
 * notes written by then. (Graph edges are filtered by the store's validity query.)
 */
export async function keepAsOf(
  store: Store,
  workspaceId: string,
  asOf: string,
  parts: TimedParts,
): Promise<TimedParts> {
  const [episodes, procedures, notes] = await Promise.all([
    store.episodes.getByIds(
      workspaceId,
      parts.episodes.map((e) => e.id),
    ),
    store.procedures.getByIds(
      workspaceId,
      parts.procedures.map((p) => p.id),
    ),
    store.notes.getByIds(
      workspaceId,
      parts.notes.map((n) => n.id),
      { includeArchived: true },
    ),
  ])
  const written = (rows: readonly { id: string; createdAt: string }[]) =>
    new Set(rows.filter((row) => row.createdAt <= asOf).map((row) => row.id))
  const episodeIds = written(episodes)
  const procedureIds = written(procedures)
  const noteIds = written(notes)
  return {
    hits: parts.hits.filter((hit) => hit.createdAt <= asOf),
    episodes: parts.episodes.filter((e) => episodeIds.has(e.id)),
    procedures: parts.procedures.filter((p) => procedureIds.has(p.id)),
    notes: parts.notes.filter((n) => noteIds.has(n.id)),
  }
}
