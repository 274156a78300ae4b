import type { ExtractedEpisode } from '../extractor/types'
import { entityTokens, keywords, outcomeSentence, proseSentences, salienceScore } from './salience'

const TOPIC_SHIFT =
  /^(?:anyway|another (?:thing|question)|moving on|next(?: up)?[,:]|switching (?:topics|gears)|on (?:a|another) (?:different|separate|unrelated) (?:note|topic)|unrelated|separately|also,? (?:unrelated|different topic)|new topic|different question)\b/i

function overlap(a: ReadonlySet<string>, b: ReadonlySet<string>): number {
  if (a.size === 0 || b.size === 0) return 0
  let shared = 0
  for (const x of a) if (b.has(x)) shared++
  return shared / Math.min(a.size, b.size)
}

function truncateWords(text: string, maxWords: number): string {
  const words = text.replace(/\s+/g, ' ').trim().split(' ')
  return words
    .slice(0, maxWords)
    .join(' ')
    .replace(/[,;:.!?]+$/, '')
}

function clip(text: string, max: number): string {
  const t = text.replace(/\s+/g, ' ').trim()
  if (t.length <= max) return t
  const cut = t.slice(0, max)
  return `${cut.slice(0, Math.max(cut.lastIndexOf(' '), max / 2)).replace(/[,;:]+$/, '')}…`
}

interface Group {
  chunks: { id: number; text: string }[]
  terms: Set<string>
}

/**
 * Groups a session's chunks into topical episodes: a new episode starts on an explicit topic shift or when a
 * chunk shares (almost) no named things or keywords with the current one. Titles and summaries come from the
 * most salient sentences; entities are the most frequent named things.
 */
export function episodesByRules(chunks: readonly { id: number; text: string }[]): ExtractedEpisode[] {
  const groups: Group[] = []
  for (const chunk of chunks) {
    const terms = new Set([...entityTokens(chunk.text).map((e) => e.toLowerCase()), ...keywords(chunk.text)])
    if (terms.size === 0) continue
    const current = groups.at(-1)
    const shift = TOPIC_SHIFT.test(chunk.text.replace(/^\s*\w+:\s*/, ''))
    if (current && !shift && overlap(current.terms, terms) >= 0.2) {
      current.chunks.push(chunk)
      for (const t of terms) current.terms.add(t)
    } else {
      groups.push({ chunks: [chunk], terms })
    }
  }
  const episodes: ExtractedEpisode[] = []
  for (const group of groups) {
    const text = group.chunks.map((c) => c.text).join('\n')
    const sentences = proseSentences(text).filter((s) => s.length >= 12)
    if (sentences.length === 0) continue
    const ranked = [...sentences].sort((a, b) => salienceScore(b) - salienceScore(a))
    const entities = entityTokens(text).slice(0, 8)
    const best = ranked[0] ?? ''
    const title =
      entities.length > 0
        ? `${entities.slice(0, 3).join(', ')}: ${truncateWords(best, 8)}`
        : truncateWords(best, 10)
    const summaryParts = sentences.filter((s) => ranked.slice(0, 2).includes(s))
    const outcome = outcomeSentence(sentences)
    const episode: ExtractedEpisode = {
      title: clip(title, 120),
      summary: clip(summaryParts.join(' '), 400),
      entities,
      chunkIds: group.chunks.map((c) => c.id),
    }
    if (outcome) episode.outcome = clip(outcome, 300)
    episodes.push(episode)
  }
  return episodes
}
