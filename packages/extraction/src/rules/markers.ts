import type { ExtractedMarker, ExtractedTriple } from '../extractor/types'

const CORRECTION = [
  /^(?:no|nope|nah)\b[,.!]?\s+(?:actually|it is|that is|the|we|i|you|this|not|wait)\b/i,
  /^actually,?\s+(?:it is|that is|we|i|the|you)\b/i,
  /\b(?:that|this|it) is (?:wrong|incorrect|not right|not correct|not true|not what i (?:said|meant|asked))\b/i,
  /\byou are (?:wrong|mistaken|incorrect)\b/i,
  /\byou (?:got|have) (?:it|that) wrong\b/i,
  /\b(?:i|we) (?:said|meant|told you)\b.*\bnot\b/i,
  /\bthat is not (?:how|what)\b/i,
  /^(?:correction|to clarify|let me correct)\b/i,
  /\bnot [\w.+#-]+,? (?:but|it is) [\w.+#-]+/i,
]

const STYLE = [
  /\b(?:be|keep (?:it|answers|responses|replies|things)|make (?:it|answers|responses)) (?:more )?(?:concise|brief|short|shorter|terse|succinct|to the point)\b/i,
  /\b(?:be|make (?:it|them)) (?:more )?(?:detailed|thorough|verbose)\b/i,
  /\b(?:no|do not use|do not add|without|stop using|stop adding|skip the|avoid) (?:any )?(?:emojis?|emoticons|exclamation marks|preamble|pleasantries|small talk|disclaimers|apologies|filler|jargon|buzzwords|fluff)\b/i,
  /\bstop (?:apologi[sz]ing|saying|repeating|explaining|adding|writing|using|putting|including|asking)\b/i,
  /\b(?:british|american|uk|us) (?:spelling|english)\b/i,
  /^(?:please\s+)?(?:prefer|use|avoid|always|never|keep|write|give|show|add|include|stop|do not)\b.*\b(?:in|for) your (?:answers|responses|replies|code|examples|suggestions|explanations)\b/i,
  /\b(?:prefer|want|like it if|would like) you (?:not to|to not|to never|never|to always|always|to stop|to be)\b/i,
  /\b(?:use|prefer|give me|answer (?:with|in)|respond (?:with|in)|reply (?:with|in)|format (?:it|answers|responses) (?:as|in)|write in) (?:bullet points|bullets|markdown|plain text|tables?|numbered lists?|code blocks?|british english|american english|english|french|german|spanish|short sentences|headers|json)\b/i,
  /\b(?:answer|respond|reply|write|talk to me|speak) (?:in|using) (?:english|french|german|spanish|british|a (?:formal|casual|friendly) tone)\b/i,
  /\b(?:just|only) (?:show|give) (?:me )?(?:the )?(?:code|answer|diff|command)\b/i,
  /\b(?:do not|never) (?:explain|over-?explain|lecture|summari[sz]e at the end|use (?:emojis?|exclamation marks|bullet points|jargon|headers))\b/i,
  /\b(?:less|fewer) (?:verbose|words|explanation|emojis?|jargon)\b/i,
  /\b(?:call me|address me as)\b/i,
  /\b(?:(?:use|keep) (?:a )?(?:formal|casual|friendly|neutral|professional) tone)\b/i,
]

const REJECT_SUGGESTION =
  /^(?:please\s+)?(?:do not|never|stop|quit)\s+(?:suggest(?:ing)?|recommend(?:ing)?|propos(?:e|ing)|bring(?:ing)? up|mention(?:ing)?|push(?:ing)?|offer(?:ing)?)\s+(.+?)(?:\s+(?:again|to me|anymore|any more|please))*[.!]?$/i

function sentenceCase(text: string): string {
  const t = text.trim().replace(/\s+/g, ' ')
  const body = /[.!?]$/.test(t) ? t : `${t}.`
  return body.charAt(0).toUpperCase() + body.slice(1)
}

/** Third-person rewrite of a short first-person request, e.g. "Please be concise" → "User asked: be concise." */
function asked(sentence: string): string {
  const core = sentence
    .replace(/^(?:please|pls|also|and|ok(?:ay)?|so|hey)[,\s]+/i, '')
    .replace(/\s*please[.!]?$/i, '')
  return `User asked: ${sentenceCase(core)}`
}

/** Style requests are detected even in question form ("can you be more concise?"). */
export function styleMarker(sentence: string): ExtractedMarker | undefined {
  if (/^(?:if|when|whether)\b/i.test(sentence)) return undefined
  if (/\?$/.test(sentence) && !/^(?:can|could|would|will) you\b/i.test(sentence)) return undefined
  if (!STYLE.some((re) => re.test(sentence))) return undefined
  const core = sentence.replace(/^(?:can|could|would|will) you(?: please)?\s+/i, '').replace(/\?$/, '')
  return { kind: 'style', statement: asked(core) }
}

/** The thing a user asks never to be suggested ("please don't suggest MongoDB again"). */
export function rejectedSuggestion(sentence: string): string | undefined {
  return REJECT_SUGGESTION.exec(sentence)?.[1]
}

/** Corrections, explicit rejections of suggestions, and preference/rejection markers implied by triples. */
export function sentenceMarkers(
  sentence: string,
  triples: readonly ExtractedTriple[],
  isFact: boolean,
): ExtractedMarker[] {
  const out: ExtractedMarker[] = []
  if (CORRECTION.some((re) => re.test(sentence))) {
    out.push({
      kind: 'correction',
      statement: `User corrected the assistant: ${sentenceCase(sentence.replace(/^(?:no|nope|nah)[,.!]?\s+/i, ''))}`,
    })
  }
  const suggestion = REJECT_SUGGESTION.exec(sentence)
  if (suggestion)
    out.push({ kind: 'rejection', statement: `User does not want suggestions of ${suggestion[1]}.` })
  if (!isFact) return out
  const mine = triples.filter((t) => t.subject === 'user' && t.polarity === 1)
  const preferred = mine.some((t) => t.predicate === 'prefers')
  // "I prefer tabs over spaces": the avoided rival belongs to the preference, not to a rejection of its own.
  const rivals = preferred ? mine.filter((t) => t.predicate === 'avoids').map((t) => t.object) : []
  for (const t of mine) {
    if (t.predicate === 'prefers') {
      const over = rivals.length > 0 ? ` over ${rivals.join(' and ')}` : ''
      out.push({ kind: 'preference', statement: `User prefers ${t.object}${over}.` })
    }
    if (t.predicate === 'avoids' && rivals.includes(t.object)) continue
    if ((t.predicate === 'rejects' || t.predicate === 'avoids') && !suggestion) {
      out.push({
        kind: 'rejection',
        statement: `User ${t.predicate === 'rejects' ? 'rejects' : 'avoids'} ${t.object}.`,
      })
    }
  }
  if (
    !out.some((m) => m.kind === 'preference') &&
    /^(?:i|personally,? i) (?:always |really )?(?:prefer|like it when|want you to always|would rather)\b/i.test(
      sentence,
    )
  ) {
    out.push({
      kind: 'preference',
      statement: `User preference: ${sentenceCase(sentence.replace(/^personally,?\s*/i, ''))}`,
    })
  }
  return out
}
