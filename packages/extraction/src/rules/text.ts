const CONTRACTIONS: [RegExp, string][] = [
  [/\b(can)'t\b/gi, '$1 not'],
  [/\bwon't\b/gi, 'will not'],
  [/\b(\w+)n't\b/gi, '$1 not'],
  [/\b(i)'m\b/gi, '$1 am'],
  [/\b(we|they|you)'re\b/gi, '$1 are'],
  [/\b(i|we|they|you)'ve\b/gi, '$1 have'],
  [/\b(i|we|they|you)'d\b/gi, '$1 would'],
  [/\b(i|we|they|you)'ll\b/gi, '$1 will'],
  [/\b(it|that|this|there|what|he|she)'s\b/gi, '$1 is'],
  [/\bcannot\b/gi, 'can not'],
]

/** "not only X but (also) Y" coordinates X and Y; its "not" negates nothing. */
const CORRELATIVE = /\bnot only\s+(.+?),?\s+but(?: also)?\s+/gi

/**
 * Straightens quotes, expands contractions ("don't" → "do not", "I'm" → "I am") and reads "not only X but
 * also Y" as "X and also Y".
 */
export function normalizeSentence(text: string): string {
  let s = text.replace(/[‘’`´]/g, "'").replace(/[“”]/g, '"')
  for (const [re, to] of CONTRACTIONS) s = s.replace(re, to)
  return s.replace(CORRELATIVE, '$1 and also ').replace(/\s+/g, ' ').trim()
}

const CODE_LINE =
  /^\s*(?:[$>#%]\s|(?:const|let|var|def|class|function|return|import|export|from|public|private|package|#include|SELECT|INSERT|CREATE|UPDATE|DELETE)\b.*[=({;:'"]|[}\])];?\s*$)|[{};]\s*$|=>|==|\w\(\S*\)\s*[;{]?\s*$|^\s{4,}\S|^\t+\S|^\s*[\w.]+\(.*\)\s*;?\s*$|^\s*(?:echo|cd|ls|cat|grep|curl|wget|npm|npx|pnpm|yarn|git|docker|kubectl|sudo|pip|python3?|node|make|export|source|chmod|mkdir|rm|cp|mv)\s.*(?:\s-{1,2}\w|["'>|/=])/

const SPEAKER = /^\s*(?:\[[^\]]{0,40}\]\s*)?(user|human|me|assistant|ai|bot|system|agent|hermes)\s*:\s*/i
const OTHER_SPEAKER = /^(assistant|ai|bot|system|agent|hermes)$/i

/**
 * Removes what must never produce facts: fenced code blocks, code-looking lines and non-user turns (lines
 * labelled assistant/ai/bot/system). Inline code that is a plain identifier keeps its text; other inline
 * code becomes a neutral placeholder.
 */
export function stripNonProse(text: string): string {
  const noFences = text.replace(/```[\s\S]*?(?:```|$)/g, '\n')
  const lines: string[] = []
  let skipping = false
  for (const raw of noFences.split('\n')) {
    const speaker = SPEAKER.exec(raw)
    if (speaker) {
      skipping = OTHER_SPEAKER.test(speaker[1] ?? '')
      if (skipping) continue
      lines.push(raw.slice(speaker[0].length))
      continue
    }
    if (skipping) continue
    if (CODE_LINE.test(raw)) {
      lines.push('')
      continue
    }
    lines.push(raw)
  }
  return lines
    .join('\n')
    .replace(/`([A-Za-z][\w.@/+-]{0,40})`/g, '$1')
    .replace(/`[^`\n]*`/g, ' CODESPAN ')
}

/** Splits prose into sentences on terminal punctuation followed by space, and on blank or list lines. */
export function splitSentences(text: string): string[] {
  const out: string[] = []
  for (const line of text.split(/\n+/)) {
    const body = line.replace(/^\s*(?:[-*•]|\d+[.)])\s+/, '').trim()
    if (!body) continue
    for (const part of body.split(/(?<=[.!?])\s+(?=["'(]?[A-Z0-9])|(?<=[!?])\s+/)) {
      const s = part.trim()
      if (s) out.push(s)
    }
  }
  return out
}
