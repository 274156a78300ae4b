/** Longest message prefix read for cues (characters). */
const MAX_SCAN_CHARS = 2000

/** A question asking for a summary of what was discussed: "summarise my progress", "give me an overview". */
const ASKS_SUMMARY = /\b(?:summar(?:y|ies|i[sz]e|i[sz]ing)|recap|overview|progress so far)\b/i

/** A question asking in which order things came up: "in which order did I …", "list … in order". */
const ASKS_ORDER =
  /\b(?:in (?:which|what) order|order in which|in (?:chronological )?order(?! to\b)|chronologically|sequence of)\b/i

/**
 * A question over the whole conversation rather than one moment of it: "across our conversations",
 * "throughout", "how many times", "so far" (an order is asked by {@link ASKS_ORDER}).
 */
const ASKS_OVER_TIME =
  /\b(?:across|throughout|how many (?:times|different)|over (?:time|the (?:past|last) (?:few )?(?:weeks|months|sessions))|so far|all the (?:times|ways|steps)|evolv(?:e|ed|ing)|chang(?:ed|es) over)\b/i

/** What a question asks of the conversation as a whole: a summary, the order things came up in, a span of it, or neither. */
export type ConversationCue = 'summary' | 'order' | 'over-time' | null

/** Whether the message asks for a summary, for an order, about the conversation over time, or about one moment. */
export function conversationCue(message: string): ConversationCue {
  const text = message.slice(0, MAX_SCAN_CHARS)
  if (ASKS_SUMMARY.test(text)) return 'summary'
  if (ASKS_ORDER.test(text)) return 'order'
  return ASKS_OVER_TIME.test(text) ? 'over-time' : null
}

/**
 * A question about what the asker said: "in which order did I bring up …", "what have I mentioned about …",
 * "did I tell you …".
 */
const ASKS_OWN_WORDS =
  /\bI(?:'ve| have| had)?\s+(?:first\s+|ever\s+|already\s+|just\s+)?(?:brought up|raised|mentioned|asked(?: you)?(?: about)?|told you|talked about|shared|described|said)\b|\bdid I (?:bring up|raise|mention|ask|tell|talk about|share|say)\b/i

/** Whether the message asks about what its author said (their own turns hold the answer). */
export function asksOwnWords(message: string): boolean {
  return ASKS_OWN_WORDS.test(message.slice(0, MAX_SCAN_CHARS))
}

/**
 * A question about what the assistant said or did: "what did you recommend …", "how did you help me …", "the
 * options you suggested", "your advice". Not a request for advice now ("what would you suggest …"), nor "have
 * you ever …" or "what have you and Kate planned": some askers call themselves "you".
 */
const ASKS_ASSISTANT_WORDS =
  /\b(?:did|have|had) you\s+(?:\w+\s+)?(?:recommend|suggest|advise|propose|explain|describe|help|guide|walk|break|tailor|show|teach|outline|clarify|say|tell|mention)(?:ed|s)?\b|\byou\s+(?:recommended|suggested|advised|proposed|explained|described|helped|guided|walked|tailored|showed|taught|outlined|clarified|told)\b|\byour\s+(?:advice|suggestions?|recommendations?|explanations?|guidance|tips)\b/i

/** Whether the message asks about what the assistant answered (its turns hold the answer too). */
export function asksAssistantWords(message: string): boolean {
  return ASKS_ASSISTANT_WORDS.test(message.slice(0, MAX_SCAN_CHARS))
}

/** A yes/no question about the asker's past: "Have I ever …", "Did I … before?", "Have we already …". */
const ASKS_EVER =
  /\b(?:have|has|had|did)\s+(?:I|we)\s+(?:ever|already|previously|once)\b|\b(?:have|has|had|did)\s+(?:I|we)\b[^?.!]*\b(?:before|ever|previously|in the past)\b/i

/** Whether the message asks if the asker ever did something (a turn saying they never did answers it too). */
export function asksEver(message: string): boolean {
  return ASKS_EVER.test(message.slice(0, MAX_SCAN_CHARS))
}

/** A request for help or advice: "can you …", "how should I …", "any tips", "I'm planning …", "recommend". */
const ASKS_HELP =
  /^\s*(?:(?:can|could|would|will) you\b|how (?:do|can|should|would|could|might) (?:i|we|you)\b|what (?:should|can|could|would|might) (?:i|we)\b|what are (?:some|my|the)\b|which\b.*\b(?:should|would)\b|any (?:tips|ideas|advice|suggestions)\b|i'?m (?:looking|thinking|planning|trying|considering)\b|(?:please )?(?:help|suggest|recommend|show|explain|give)\b)|\b(?:recommend|suggest(?:ion)?s?|advice|tips|help me|ideas)\b/i

/**
 * A question about what happened: "did I …", "I mentioned …", "how many", "when did", "what was my …" (not
 * "what should I set …": a modal asks for help).
 */
const RECALLS =
  /\b(?:did|have|had) (?:i|we)\b|(?<!\b(?:should|shall|can|could|would|will|do|must|might|may)\s+)\bI (?:mentioned|said|told|shared|set|decided|chose|planned)\b|\bhow many\b|\bwhen did\b|\bwhat (?:was|were) (?:my|the)\b/i

/**
 * Whether the message asks about the past: what happened, what was said, or the conversation as a whole (`cue`,
 * when the caller has read it already).
 */
export function recallsPast(message: string, cue: ConversationCue = conversationCue(message)): boolean {
  return cue !== null || RECALLS.test(message.slice(0, MAX_SCAN_CHARS))
}

/** Whether the message asks for help now, rather than about the past or the conversation as a whole. */
export function asksForHelp(message: string): boolean {
  return ASKS_HELP.test(message.slice(0, MAX_SCAN_CHARS)) && !recallsPast(message)
}
