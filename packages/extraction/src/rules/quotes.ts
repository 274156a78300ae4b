/** Quoted speech cut out of a turn, with who said it. */
export interface Quote {
  /** `I` (the turn's author) or the reporter's surface name as written. */
  reporter: string
  text: string
}

const SPEECH = 'said|says|wrote|writes|replied|told (?:me|us|you)'
const NAME = '[A-Za-z][\\w.-]*(?: [A-Z][\\w.-]*)?'
/** `Bob said: "…"` */
const FRAME_BEFORE = new RegExp(`\\b(${NAME})\\s+(?:${SPEECH})\\s*[:,]?\\s*"([^"\\n]+)"[.!]?`, 'g')
/** `"…," Bob said` and `"…," said Bob` */
const FRAME_AFTER = new RegExp(
  `"([^"\\n]+)"\\s*,?\\s*(?:(${NAME})\\s+(?:${SPEECH})|(?:said|says|wrote|replied)\\s+(${NAME}))\\b[.!]?`,
  'g',
)

/** The reporter a captured name stands for: the whole capture, else its last word ("Then Bob" → Bob). */
function reporterOf(captured: string, isPerson: (name: string) => boolean): string | undefined {
  if (captured === 'I' || isPerson(captured)) return captured
  const last = captured.split(' ').at(-1) ?? ''
  return last === 'I' || isPerson(last) ? last : undefined
}

/**
 * Cuts quoted speech with a reporting frame out of a turn (`Bob said: "I use Go."`, `"I use Go," Bob
 * said.`). A quote by the author or a known person comes back with its reporter; a quote by anyone else is
 * only removed, so its "I" is never read as the author.
 */
export function cutQuotes(
  text: string,
  isPerson: (name: string) => boolean,
): { rest: string; quotes: Quote[] } {
  const quotes: Quote[] = []
  const keep = (reporterText: string | undefined, quoted: string | undefined) => {
    const reporter = reporterText ? reporterOf(reporterText, isPerson) : undefined
    const body = (quoted ?? '').trim().replace(/,$/, '')
    if (reporter && body) quotes.push({ reporter, text: /[.!?]$/.test(body) ? body : `${body}.` })
    return ' '
  }
  const straight = text.replace(/[“”]/g, '"')
  const rest = straight
    .replace(FRAME_BEFORE, (_all, who: string, quoted: string) => keep(who, quoted))
    .replace(FRAME_AFTER, (_all, quoted: string, who?: string, whoAfter?: string) =>
      keep(who ?? whoAfter, quoted),
    )
  return { rest, quotes }
}
