import { extractJson } from './json-text'

/** Why a summary was refused by {@link validateSummary}. */
export type SummaryRejection = 'empty' | 'too_short' | 'too_long' | 'quoted' | 'not_prose'

/** Bounds used by {@link validateSummary}. */
export const SUMMARY_LIMITS = Object.freeze({ minChars: 20, minWords: 4, maxChars: 400 })

const QUOTES = /^["'“”‘’«»`]|["'“”‘’«»`]$/
const SPEAKER_LABEL = /(^|\n)\s*(user|assistant|system|human|ai)\s*:/i

/**
 * Checks a one-sentence session summary. Refuses empty or too short text, text over 400 characters, text that
 * is a quotation or a copy of the transcript (wrapped in quotes, speaker labels), and non-prose (JSON, code,
 * lists). Whitespace is collapsed in the accepted summary.
 */
export function validateSummary(
  text: string,
): { ok: true; summary: string } | { ok: false; reason: SummaryRejection } {
  const summary = text.replace(/\s+/g, ' ').trim()
  if (summary === '') return { ok: false, reason: 'empty' }
  if (/^[{[<#*-]|```|^\d+[.)]\s/.test(summary)) return { ok: false, reason: 'not_prose' }
  if (QUOTES.test(summary) || SPEAKER_LABEL.test(text)) return { ok: false, reason: 'quoted' }
  const words = summary.split(' ').filter((w) => /[\p{L}\p{N}]/u.test(w)).length
  if (summary.length < SUMMARY_LIMITS.minChars || words < SUMMARY_LIMITS.minWords) {
    return { ok: false, reason: 'too_short' }
  }
  if (summary.length > SUMMARY_LIMITS.maxChars) return { ok: false, reason: 'too_long' }
  return { ok: true, summary }
}

/** Reads the summary out of a model answer: `{"summary": "..."}` or plain prose. */
export function parseSummaryAnswer(text: string): { summary: string | null; rejected?: SummaryRejection } {
  const json = extractJson(text)
  let candidate: string
  if (json && typeof json === 'object' && !Array.isArray(json) && 'summary' in json) {
    const s = (json as { summary: unknown }).summary
    if (typeof s !== 'string') return { summary: null, rejected: 'empty' }
    candidate = s
  } else {
    candidate = text
  }
  const result = validateSummary(candidate)
  return result.ok ? { summary: result.summary } : { summary: null, rejected: result.reason }
}
