import * as v from 'valibot'
import type { ExtractedEpisode } from '../extractor/types'
import { _optionalText, _stringList, _text } from './fields'
import { _arrayField, extractJson } from './json-text'

const EpisodeSchema = v.object({
  title: _text(200),
  summary: _text(2000),
  outcome: _optionalText(1000),
  entities: _stringList(20),
  chunk_ids: v.optional(v.nullable(v.array(v.unknown())), []),
})

/**
 * Parses an episodes answer. Chunk ids not among `knownChunkIds` are discarded; an episode left without
 * chunks, title or summary is dropped and counted.
 */
export function parseEpisodesAnswer(
  text: string,
  knownChunkIds: readonly number[],
): { episodes: ExtractedEpisode[]; dropped: number; ok: boolean } {
  const json = extractJson(text)
  const items = _arrayField(json, 'episodes')
  if (!items) return { episodes: [], dropped: 0, ok: json !== undefined }
  const known = new Set(knownChunkIds)
  const episodes: ExtractedEpisode[] = []
  let dropped = 0
  for (const item of items) {
    const r = v.safeParse(EpisodeSchema, item)
    if (!r.success) {
      dropped++
      continue
    }
    const ids = [...new Set((r.output.chunk_ids ?? []).map((x) => Number(x)))].filter((x) => known.has(x))
    if (ids.length === 0) {
      dropped++
      continue
    }
    const episode: ExtractedEpisode = {
      title: r.output.title,
      summary: r.output.summary,
      entities: r.output.entities,
      chunkIds: ids.sort((a, b) => a - b),
    }
    if (r.output.outcome !== undefined) episode.outcome = r.output.outcome
    episodes.push(episode)
  }
  return { episodes, dropped, ok: true }
}
