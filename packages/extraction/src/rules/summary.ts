import { validateSummary } from '../parse/summary'
import { entityTokens, keywords, outcomeSentence, proseSentences } from './salience'

function listOf(items: readonly string[]): string {
  if (items.length <= 1) return items.join('')
  return `${items.slice(0, -1).join(', ')} and ${items.at(-1)}`
}

function lowerFirst(text: string): string {
  return /^[A-Z][a-z]/.test(text) && !/^(?:I|I'm)\b/.test(text)
    ? text.charAt(0).toLowerCase() + text.slice(1)
    : text
}

function thirdPerson(sentence: string): string {
  return sentence
    .replace(/\bI am\b|\bI'm\b/g, 'the user is')
    .replace(/\bI\b/g, 'the user')
    .replace(/\b[Mm]y\b/g, "the user's")
    .replace(/\bwe\b|\bWe\b/g, 'the team')
    .replace(/\bour\b|\bOur\b/g, "the team's")
    .replace(/[.!]+$/, '')
}

/**
 * One deterministic sentence about a session: its main topics (most frequent named things, else keywords)
 * and, when one is stated, its outcome. Null when the transcript has too little content.
 */
export function summaryByRules(transcript: string): string | null {
  const sentences = proseSentences(transcript)
  const text = sentences.join(' ')
  const topics = entityTokens(text).slice(0, 3)
  const fallback = [...new Set(keywords(text))].slice(0, 3)
  const about = topics.length > 0 ? topics : fallback
  if (about.length === 0) return null
  const outcome = outcomeSentence(sentences)
  let summary = `The session covered ${listOf(about)}`
  if (outcome) {
    const clause = lowerFirst(thirdPerson(outcome.replace(/\s+/g, ' ').trim()))
    const candidate = `${summary}; ${clause}.`
    summary = candidate.length <= 300 ? candidate : `${summary}.`
  } else {
    summary = `${summary}.`
  }
  const checked = validateSummary(summary)
  return checked.ok ? checked.summary : null
}
