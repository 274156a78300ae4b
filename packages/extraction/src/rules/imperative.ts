import { looksNamed, objectList } from './noun-phrase'
import { isKnownTech } from './tech-lexicon'

const NEGATED_IMPERATIVE =
  /^(?:please[,\s]+)?(?:do not|never|please never)\s+(?:ever\s+)?(?:use|touch|add|install|import|reach for|pull in|bring in|pick|choose|give me)\s+(.+)$/i

/**
 * Tools the speaker tells the assistant never to use ("Never use Moment.js in the snippets", "Don't use
 * Lodash in your answers"): the speaker rejects them. Only named or well-known things: "don't use emojis" is
 * a style request, not a rejected tool.
 */
export function rejectedByImperative(sentence: string): string[] {
  const m = NEGATED_IMPERATIVE.exec(sentence)
  if (!m) return []
  return objectList(m[1] ?? '').filter((o) => looksNamed(o) || isKnownTech(o))
}
