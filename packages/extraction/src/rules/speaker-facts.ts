import type { ExtractedEntityType, ExtractedMarker, ExtractedTriple } from '../extractor/types'
import { _dedupeTriples } from '../parse/facts'
import type { ChunkSpeakers } from '../speakers/read-speakers'
import type { Attribution } from '../speakers/types'
import { extractFactsByRules, type RuleFacts } from './extract-facts'
import { cutQuotes } from './quotes'
import { ADDRESSEE, EVERYONE, type SubjectScope } from './scope'

/** Whose words a piece of text is: the turn's author, or a person the author quotes. */
interface Voice {
  /** Peer id; undefined for a registry without turns (the speaker then stays `user`). */
  author: string | undefined
  /** True when the author is quoted by someone else's turn. */
  quoted: boolean
}

interface Subject {
  subject: string
  peerId?: string
  attribution?: Attribution
}

/** "manager Bob", "our PM Carol": lower-case words before a peer's name are a title, not another person. */
function titledPeer(subject: string, speakers: ChunkSpeakers): string | undefined {
  const m = /^((?:[a-z]+|[A-Z]{2,4}) )+([A-Z][\w.-]*)$/.exec(subject)
  return m ? speakers.peerNamed(m[2] ?? '') : undefined
}

function subjectsOf(t: ExtractedTriple, voice: Voice, speakers: ChunkSpeakers): Subject[] {
  const { author, quoted } = voice
  const as = (peerId: string, attribution: Attribution): Subject => ({
    subject: peerId,
    peerId,
    attribution: quoted ? 'reported' : attribution,
  })
  switch (t.subject) {
    case 'user':
      return [author ? as(author, 'speaker') : { subject: 'user' }]
    case 'team':
      return [author ? as(author, 'speaker-team') : { subject: 'team' }]
    case EVERYONE:
      if (!author) return [{ subject: 'team' }]
      return quoted ? [] : speakers.humans.map((id) => as(id, 'participants'))
    case ADDRESSEE: {
      const addressee = author && !quoted ? speakers.addresseeOf(author) : undefined
      return addressee ? [as(addressee, 'addressee')] : []
    }
    default: {
      const peerId = speakers.peerNamed(t.subject) ?? titledPeer(t.subject, speakers)
      return peerId
        ? [{ subject: peerId, peerId, attribution: t.attribution ?? 'named' }]
        : [{ subject: t.subject }]
    }
  }
}

function attributeTriples(triples: readonly ExtractedTriple[], voice: Voice, speakers: ChunkSpeakers) {
  const out: ExtractedTriple[] = []
  for (const t of triples) {
    const { attribution: _unresolved, ...rest } = t
    // The rules' predicates are about things: "I work with Bob" says nothing the vocabulary can hold.
    if (speakers.peerNamed(t.object)) continue
    for (const s of subjectsOf(t, voice, speakers)) {
      if (s.subject.toLowerCase() === t.object.toLowerCase()) continue
      out.push({
        ...rest,
        subject: s.subject,
        ...(s.peerId ? { subjectPeerId: s.peerId, attribution: s.attribution } : {}),
      })
    }
  }
  return out
}

/** Markers belong to the author; "User prefers tabs." reads "Alice prefers tabs." when the author has a name. */
function attributeMarkers(
  markers: readonly ExtractedMarker[],
  author: string | undefined,
  speakers: ChunkSpeakers,
) {
  if (!author) return [...markers]
  const name = speakers.nameOf(author)
  return markers.map((m) => ({
    ...m,
    statement: name ? m.statement.replace(/^User\b/, name) : m.statement,
    peerId: author,
  }))
}

function attributeTypes(
  types: readonly ExtractedEntityType[],
  speakers: ChunkSpeakers,
): ExtractedEntityType[] {
  return types
    .filter((t) => t.entity !== ADDRESSEE && t.entity !== EVERYONE)
    .map((t) => ({ ...t, entity: speakers.peerNamed(t.entity) ?? t.entity }))
}

function uniqueBy<T>(items: readonly T[], key: (item: T) => string): T[] {
  const seen = new Set<string>()
  return items.filter((item) => {
    const k = key(item)
    if (seen.has(k)) return false
    seen.add(k)
    return true
  })
}

/** The facts of one human's words (their own text, then the people they quote), attributed to peers. */
function voiceFacts(text: string, author: string | undefined, speakers: ChunkSpeakers): RuleFacts {
  const isPerson = (name: string) => speakers.peerNamed(name) !== undefined
  const { rest, quotes } = cutQuotes(text, isPerson)
  const scope: SubjectScope = {
    addressee: author !== undefined && speakers.addresseeOf(author) !== undefined,
    people: speakers.names,
  }
  const own = extractFactsByRules(rest, scope)
  const triples = attributeTriples(own.triples, { author, quoted: false }, speakers)
  const entityTypes = [...own.entityTypes]
  for (const quote of quotes) {
    const quoted = quote.reporter !== 'I'
    const reporter = quoted ? speakers.peerNamed(quote.reporter) : author
    const said = extractFactsByRules(quote.text, { addressee: false, people: speakers.names })
    triples.push(...attributeTriples(said.triples, { author: reporter, quoted }, speakers))
    entityTypes.push(...said.entityTypes)
  }
  return {
    triples,
    markers: attributeMarkers(own.markers, author, speakers),
    entityTypes: attributeTypes(entityTypes, speakers),
  }
}

/**
 * The rules over speaker-labelled input. Each human turn is read on its own: "I" and "we" are its author,
 * "we both" every human author, "you" the other participant when the chunk has exactly two and both are
 * human, a named peer that peer, a quoted or reported statement its speaker. Assistant, system and tool
 * turns give nothing. With a registry but no turns, `text` is read with the speaker left as `user`.
 */
export function speakerFactsByRules(text: string, speakers: ChunkSpeakers): RuleFacts {
  const parts =
    speakers.turns.length === 0
      ? [voiceFacts(text, undefined, speakers)]
      : speakers.turns.filter((t) => t.role === 'user').map((t) => voiceFacts(t.text, t.peerId, speakers))
  return {
    triples: _dedupeTriples(parts.flatMap((p) => p.triples)),
    markers: uniqueBy(
      parts.flatMap((p) => p.markers),
      (m) => `${m.kind}\u0000${m.statement.toLowerCase()}\u0000${m.peerId ?? ''}`,
    ),
    entityTypes: uniqueBy(
      parts.flatMap((p) => p.entityTypes),
      (t) => t.entity.toLowerCase(),
    ),
  }
}
