import { isKnownTech } from './tech-lexicon'
import { normalizeSentence, splitSentences, stripNonProse } from './text'

const STOP = new Set(
  (
    'a an the and or but if then so to of in on at by for with from as is are was were be been being am do does did ' +
    'have has had i we you he she it they me us him them my our your his her its their this that these those there ' +
    'here what which who whom how why when where not no yes ok okay just also very really can could would should ' +
    'will shall may might must about into over under up down out off again more most some any all both each few ' +
    'other such only own same than too let get got make made go going want need like know think thanks thank please ' +
    'hi hello hey sure right well now today yeah yep nope actually maybe still even much many lot lots thing things ' +
    'one two use using used way something anything everything nothing good great nice fine cool'
  ).split(' '),
)

const WORD = /[A-Za-z][\w.+#-]*[\w+#]|[A-Za-z]/g
/** Content words of a text, lower-cased, without stop words. */
export function keywords(text: string): string[] {
  return (text.toLowerCase().match(WORD) ?? []).filter((w) => w.length > 2 && !STOP.has(w))
}

/**
 * Named things in a text: capitalised words that do not merely start a sentence, camelCase/dotted/versioned
 * tokens, and well-known technology names. Returned in first-seen surface form, most frequent first.
 */
export function entityTokens(text: string): string[] {
  const counts = new Map<string, { surface: string; count: number; first: number }>()
  let position = 0
  for (const sentence of splitSentences(stripNonProse(text))) {
    const tokens = normalizeSentence(sentence).match(WORD) ?? []
    tokens.forEach((token, i) => {
      position++
      const lower = token.toLowerCase()
      if (STOP.has(lower) || token.length < 2 || token === 'CODESPAN') return
      const named =
        isKnownTech(token) ||
        /[a-z][A-Z]|\w\.\w|\d/.test(token) ||
        // A capitalised first word is usually just the start of the sentence.
        (/^[A-Z]/.test(token) && i > 0)
      if (!named) return
      const entry = counts.get(lower)
      if (entry) entry.count++
      else counts.set(lower, { surface: token.replace(/[.]$/, ''), count: 1, first: position })
    })
  }
  return [...counts.values()].sort((a, b) => b.count - a.count || a.first - b.first).map((e) => e.surface)
}

const OUTCOME =
  /\b(?:fixed|resolved|solved|decided|works now|working now|deployed|merged|shipped|switched|migrated|released|settled on|going with|went with|agreed|done|finished|completed|set up|configured)\b/i

/** Sentences of a text that read as prose (no code, no assistant turns), trimmed. */
export function proseSentences(text: string): string[] {
  return splitSentences(stripNonProse(text)).map((s) => s.trim())
}

/** Scores a sentence for use in titles and summaries: named things and outcome verbs count, chatter does not. */
export function salienceScore(sentence: string): number {
  const entities = entityTokens(sentence).length
  const words = keywords(sentence).length
  const outcome = OUTCOME.test(sentence) ? 2 : 0
  const question = /\?\s*$/.test(sentence) ? -1 : 0
  return entities * 2 + Math.min(words, 8) * 0.25 + outcome + question
}

/** The sentence stating an outcome, if any (the last one wins: later decisions supersede earlier ones). */
export function outcomeSentence(sentences: readonly string[]): string | undefined {
  return [...sentences].reverse().find((s) => OUTCOME.test(s) && !/\?\s*$/.test(s))
}
