import type { ExtractFactsInput } from '../extractor/types'
import { type ChunkSpeakers, readSpeakers } from '../speakers/read-speakers'
import type { KnownPeer } from '../speakers/types'
import { MARKER_KINDS, PREDICATES } from '../vocabulary'
import { _dataBlock, UNTRUSTED_NOTICE } from './untrusted'

/** At most this many retracted triples are injected as negative examples. */
export const MAX_NEGATIVE_EXAMPLES = 10

/** The opening of the fact-extraction system prompt (fakes recognise the request by it). */
export const FACTS_PROMPT_OPENING = 'You extract durable technical facts'

const SYSTEM = `${FACTS_PROMPT_OPENING} and explicit behavioural signals from a chat log for a long-term memory.

Return ONE JSON object and nothing else:
{"triples":[{"subject":"...","predicate":"...","object":"...","polarity":1,"value_text":null,"value_numeric":null,"value_unit":null,"temporal_scope":null,"evidence":"..."}],
 "markers":[{"kind":"...","statement":"...","peer":null}],
 "entity_types":[{"entity":"...","type":"..."}]}

Triples:
- predicate MUST be one of exactly these 18: ${PREDICATES.join(', ')}. Never invent another predicate; if a fact does not fit, leave it out.
- Without a list of speakers, refer to the speaker as "user" (I, me, my) and to the speaker's group as "team" (we, our team). Name everything else by its surface form as written (e.g. "Postgres", "MedFlow").
- People, teams, projects and codebases are valid subjects and objects. Link them to what they work on: "Atta is working on MedFlow" -> {"subject":"Atta","predicate":"part_of","object":"MedFlow","polarity":1}.
- polarity is 1 for an assertion and -1 for a negation or retraction ("we no longer use Redis" -> {"subject":"team","predicate":"uses","object":"Redis","polarity":-1}).
- "switched from X to Y" -> (Y, replaces, X) plus (user or team, uses, Y).
- Optional fields: value_text / value_numeric / value_unit for quantities or settings (e.g. requires_version with value_text "3.12"), temporal_scope for time qualifiers ("since March"). Use null when absent.
- evidence: the shortest quote from the log that states the fact.
- Keep the language of the log: subjects, objects, values and evidence exactly as written, in their own script ("阿里云", "東京", "Москва"); never translate or transliterate them. Only predicates, kinds and types are the English names given here.
- Extract only what is stated as true. Questions, hypotheticals ("if we used X", "should we use X?"), plans under discussion and code snippets are not facts.

Markers (explicit signals only, never mood or emotion): kind is one of ${MARKER_KINDS.join(', ')}.
- correction: the user says the assistant was wrong ("no, actually it's port 5433").
- preference: the user states how they like things done.
- rejection: the user refuses a tool, approach or suggestion.
- style: the user asks for a response style ("please be concise", "don't use emojis").
statement: one short sentence in the third person ("User prefers tabs over spaces.").

Speakers (when the log comes with a list of speakers, each turn is one JSON object {"speaker": peer id, "role": ..., "text": ...}):
- A fact about a person has that person's peer id as its subject, never "user" or "team":
  - "I", "me", "my", and "we" / "our team" meaning the speaker's team -> the peer id of the turn's speaker;
  - "we both", "all of us" -> one triple for each human speaker of the log;
  - a peer named in the text (by name, alias or id, in any case) -> that peer's id (known peers are listed);
  - "you" -> the other speaker, only when the log has exactly two speakers and both have role "user"; otherwise leave the fact out;
  - a quoted or reported statement ("Bob says he prefers Go", 'Bob said: "I use Go"') -> the peer who said it.
- Never merge different speakers into one subject: each human's facts go to that human's peer id.
- Turns with role "assistant", "system" or "tool" are not a human speaking: never turn what they say (suggestions, their own preferences, guesses about the human) into a fact about a human.
- Facts about things (projects, services, code) keep the things' names as written, whoever states them.
- Markers are signals of human speakers only: set "peer" to the peer id of the speaker whose signal it is, and write the statement with that speaker's name ("Alice prefers tabs over spaces."). Without speakers, "peer" is null.

Entity types: a lower-case label (language, framework, library, database, service, tool, platform, person, team, project, codebase, ...) for entities named in the triples.

Return empty arrays when nothing qualifies. ${UNTRUSTED_NOTICE}`

function negativeBlock(examples: NonNullable<ExtractFactsInput['negativeExamples']>): string {
  const picked = examples.slice(0, MAX_NEGATIVE_EXAMPLES)
  if (picked.length === 0) return ''
  const lines = picked.map((e) => {
    const triple = JSON.stringify({ subject: e.subject, predicate: e.predicate, object: e.object })
    return `- ${triple}${e.reason ? ` (${e.reason.replace(/\s+/g, ' ').slice(0, 200)})` : ''}`
  })
  return `\n\nDO NOT extract these relationships; they were extracted before and retracted as wrong:\n${lines.join('\n')}`
}

/** One JSON object a line: a message cannot forge another speaker's line, as newlines stay escaped. */
function jsonLines(items: readonly object[]): string {
  return items.map((item) => JSON.stringify(item)).join('\n')
}

function speakersBlock(speakers: ChunkSpeakers): string {
  const rows = speakers.participants.map((id) => ({
    peer: id,
    name: speakers.nameOf(id) ?? null,
    role: speakers.humans.includes(id)
      ? 'user'
      : (speakers.turns.find((t) => t.peerId === id)?.role ?? 'user'),
  }))
  return _dataBlock('speakers', jsonLines(rows))
}

function knownPeersBlock(peers: readonly KnownPeer[]): string {
  if (peers.length === 0) return ''
  const rows = peers.map((p) => ({ peer: p.id, name: p.name ?? null, aliases: p.aliases ?? [] }))
  return `\n\nKnown peers the text may name:\n${_dataBlock('known_peers', jsonLines(rows))}`
}

/**
 * Builds the triples + markers + entity types prompt for one chunk. With speaker-labelled `turns` the chat
 * log is one JSON turn a line after a list of the speakers; otherwise it is `text` as given. `peers` are
 * listed as the peers the text may name. Invalid turns or peers throw `ExtractionError` `INVALID_INPUT`.
 */
export function buildFactsPrompt(input: ExtractFactsInput): {
  system: string
  user: string
} {
  const system = SYSTEM + negativeBlock(input.negativeExamples ?? [])
  const speakers = readSpeakers(input)
  const known = knownPeersBlock(input.peers ?? [])
  if (!speakers || speakers.turns.length === 0) {
    return {
      system,
      user: `Extract triples, markers and entity types from this chat log.${known}\n\n${_dataBlock('chat_log', input.text)}`,
    }
  }
  const turns = jsonLines(speakers.turns.map((t) => ({ speaker: t.peerId, role: t.role, text: t.text })))
  return {
    system,
    user: `Extract triples, markers and entity types from this chat log.\n\nSpeakers:\n${speakersBlock(speakers)}${known}\n\n${_dataBlock('chat_log', turns)}`,
  }
}
