import { _dataBlock, UNTRUSTED_NOTICE } from './untrusted'

const SYSTEM = `You write a one-sentence summary of what was accomplished in a conversation session.

Return ONE JSON object and nothing else: {"summary":"..."}
- One sentence, 8 to 40 words, third person ("The user ..."), no quotes from the log, no lists, no markdown.
- Focus on outcomes and decisions, not on greetings.
Return {"summary":null} when nothing was accomplished. ${UNTRUSTED_NOTICE}`

/** Builds the session summary prompt. */
export function buildSummaryPrompt(input: { transcript: string }): { system: string; user: string } {
  return { system: SYSTEM, user: `Summarise this session.\n\n${_dataBlock('transcript', input.transcript)}` }
}
