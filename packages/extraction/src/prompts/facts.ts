import type { NegativeExample } from '../extractor/types'
import { MARKER_KINDS, PREDICATES } from '../vocabulary'
import { _dataBlock, UNTRUSTED_NOTICE } from './untrusted'

/** At most this many retracted triples are injected as negative examples. */
export const MAX_NEGATIVE_EXAMPLES = 10

const SYSTEM = `You extract durable technical facts and explicit behavioural signals from a chat log for a long-term memory.

Return ONE JSON object and nothing else:
{"triples":[{"subject":"...","predicate":"...","object":"...","polarity":1,"value_text":null,"value_numeric":null,"value_unit":null,"temporal_scope":null,"evidence":"..."}],
 "markers":[{"kind":"...","statement":"..."}],
 "entity_types":[{"entity":"...","type":"..."}]}

Triples:
- predicate MUST be one of exactly these 18: ${PREDICATES.join(', ')}. Never invent another predicate; if a fact does not fit, leave it out.
- Refer to the speaker as "user" (I, me, my) and to the speaker's group as "team" (we, our team). Name everything else by its surface form as written (e.g. "Postgres", "MedFlow").
- People, teams, projects and codebases are valid subjects and objects. Link them to what they work on: "Atta is working on MedFlow" -> {"subject":"Atta","predicate":"part_of","object":"MedFlow","polarity":1}.
- polarity is 1 for an assertion and -1 for a negation or retraction ("we no longer use Redis" -> {"subject":"team","predicate":"uses","object":"Redis","polarity":-1}).
- "switched from X to Y" -> (Y, replaces, X) plus (user or team, uses, Y).
- Optional fields: value_text / value_numeric / value_unit for quantities or settings (e.g. requires_version with value_text "3.12"), temporal_scope for time qualifiers ("since March"). Use null when absent.
- evidence: the shortest quote from the log that states the fact.
- Extract only what is stated as true. Questions, hypotheticals ("if we used X", "should we use X?"), plans under discussion and code snippets are not facts.

Markers (explicit signals only, never mood or emotion): kind is one of ${MARKER_KINDS.join(', ')}.
- correction: the user says the assistant was wrong ("no, actually it's port 5433").
- preference: the user states how they like things done.
- rejection: the user refuses a tool, approach or suggestion.
- style: the user asks for a response style ("please be concise", "don't use emojis").
statement: one short sentence in the third person ("User prefers tabs over spaces.").

Entity types: a lower-case label (language, framework, library, database, service, tool, platform, person, team, project, codebase, ...) for entities named in the triples.

Return empty arrays when nothing qualifies. ${UNTRUSTED_NOTICE}`

function negativeBlock(examples: readonly NegativeExample[]): string {
  const picked = examples.slice(0, MAX_NEGATIVE_EXAMPLES)
  if (picked.length === 0) return ''
  const lines = picked.map((e) => {
    const triple = JSON.stringify({ subject: e.subject, predicate: e.predicate, object: e.object })
    return `- ${triple}${e.reason ? ` (${e.reason.replace(/\s+/g, ' ').slice(0, 200)})` : ''}`
  })
  return `\n\nDO NOT extract these relationships; they were extracted before and retracted as wrong:\n${lines.join('\n')}`
}

/** Builds the triples + markers + entity types prompt for one chunk. */
export function buildFactsPrompt(input: { text: string; negativeExamples?: readonly NegativeExample[] }): {
  system: string
  user: string
} {
  return {
    system: SYSTEM + negativeBlock(input.negativeExamples ?? []),
    user: `Extract triples, markers and entity types from this chat log.\n\n${_dataBlock('chat_log', input.text)}`,
  }
}
