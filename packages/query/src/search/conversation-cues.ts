/** Longest message prefix read for cues (characters). */
const MAX_SCAN_CHARS = 2000

/** A question asking for a summary of what was discussed: "summarise my progress", "give me an overview". */
const ASKS_SUMMARY = /\b(?:summar(?:y|ies|i[sz]e|i[sz]ing)|recap|overview|progress so far)\b/i

/**
 * A question over the whole conversation rather than one moment of it: "across our conversations",
 * "throughout", "how many times", "in which order", "so far".
 */
const ASKS_OVER_TIME =
  /\b(?:across|throughout|how many (?:times|different)|in (?:which|what) order|order in which|in order|over (?:time|the (?:past|last) (?:few )?(?:weeks|months|sessions))|so far|all the (?:times|ways|steps)|evolv(?:e|ed|ing)|chang(?:ed|es) over)\b/i

/** What a question asks of the conversation as a whole: a summary, a span of it, or neither. */
type ConversationCue = 'summary' | 'over-time' | null

/** Whether the message asks for a summary, about the conversation over time, or about one moment. */
export function conversationCue(message: string): ConversationCue {
  const text = message.slice(0, MAX_SCAN_CHARS)
  if (ASKS_SUMMARY.test(text)) return 'summary'
  return ASKS_OVER_TIME.test(text) ? 'over-time' : null
}
