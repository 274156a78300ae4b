import type { ExtractedEntityType, ExtractedMarker, ExtractedTriple } from '../extractor/types'
import type { ChunkSpeakers } from '../speakers/read-speakers'
import type { Attribution } from '../speakers/types'

/** What a model answer for a speaker-labelled chunk keeps once every subject is checked against the speakers. */
export interface AttributedFacts {
  triples: ExtractedTriple[]
  markers: ExtractedMarker[]
  entityTypes: ExtractedEntityType[]
  /** Items left out because they could not be given to one peer. */
  dropped: { triples: number; markers: number }
}

const SPEAKER_WORD = /^(?:user|the user|speaker|the speaker|i|me|we|us|team|our team|my team)$/i
const TEAM_WORD = /^(?:we|us|team|our team|my team)$/i

const squash = (text: string) =>
  text
    .toLowerCase()
    .replace(/[^\p{L}\p{N}]+/gu, ' ')
    .trim()

/** Authors of the turns that contain `evidence`, split by whether they are human. */
function evidenceAuthors(evidence: string | undefined, speakers: ChunkSpeakers) {
  const quote = evidence ? squash(evidence) : ''
  const humans = new Set<string>()
  let others = 0
  if (quote.length < 4) return { humans, others, found: false }
  for (const turn of speakers.turns) {
    if (!squash(turn.text).includes(quote)) continue
    if (turn.role === 'user') humans.add(turn.peerId)
    else others++
  }
  return { humans, others, found: humans.size + others > 0 }
}

/**
 * The peer a model's speaker word (`user`, `team`, "I") stands for: the only human author, else the only
 * human whose turn holds the evidence; undefined when that is not one peer.
 */
function speakerOf(t: ExtractedTriple, speakers: ChunkSpeakers): string | undefined {
  if (speakers.humans.length === 1) return speakers.humans[0]
  const { humans } = evidenceAuthors(t.evidenceText, speakers)
  return humans.size === 1 ? [...humans][0] : undefined
}

function attributeTriple(t: ExtractedTriple, speakers: ChunkSpeakers): ExtractedTriple | undefined {
  let subject = t.subject
  let peerId = speakers.peerNamed(t.subject)
  let attribution: Attribution | undefined
  if (!peerId && SPEAKER_WORD.test(t.subject.trim())) {
    // Without turns there is no author to give it to: the plain-text convention stays.
    if (speakers.turns.length === 0) return t
    peerId = speakerOf(t, speakers)
    if (!peerId) return undefined
    attribution = TEAM_WORD.test(t.subject.trim()) ? 'speaker-team' : 'speaker'
  }
  if (peerId) {
    subject = peerId
    // A human's fact must come from a human's words, never only from what an assistant said.
    const { humans, others } = evidenceAuthors(t.evidenceText, speakers)
    if (speakers.humans.includes(peerId) && humans.size === 0 && others > 0) return undefined
  }
  const objectPeerId = speakers.peerNamed(t.object)
  const object = objectPeerId ?? t.object
  if (subject.toLowerCase() === object.toLowerCase()) return undefined
  return {
    ...t,
    subject,
    object,
    ...(peerId ? { subjectPeerId: peerId } : {}),
    ...(attribution ? { attribution } : {}),
    ...(objectPeerId ? { objectPeerId } : {}),
  }
}

/** The peer a marker belongs to: its `peer`, else the name opening its statement, else the only human. */
function markerPeer(m: ExtractedMarker, speakers: ChunkSpeakers): string | undefined {
  const named = m.peerId ? speakers.peerNamed(m.peerId) : undefined
  if (named) return named
  const opening =
    /^([\p{L}\p{N}][\p{L}\p{N}._-]*(?: [\p{Lu}][\p{L}\p{N}._-]*)?)/u.exec(m.statement)?.[1] ?? ''
  const byName = speakers.peerNamed(opening) ?? speakers.peerNamed(opening.split(' ')[0] ?? '')
  if (byName) return byName
  return speakers.humans.length === 1 ? speakers.humans[0] : undefined
}

/**
 * Checks a model's answer for a speaker-labelled chunk: subjects naming a peer become its id, `user` /
 * `team` become the only human author or the human whose turn holds the evidence, and anything that cannot
 * be given to one peer is dropped, never merged. A human's triple whose evidence is only in assistant turns
 * is dropped; markers go to human peers only. Without turns (a registry only), `user` and `team` stay.
 */
export function attributeFacts(
  facts: {
    triples: readonly ExtractedTriple[]
    markers: readonly ExtractedMarker[]
    entityTypes: readonly ExtractedEntityType[]
  },
  speakers: ChunkSpeakers,
): AttributedFacts {
  const triples: ExtractedTriple[] = []
  const markers: ExtractedMarker[] = []
  for (const t of facts.triples) {
    const attributed = attributeTriple(t, speakers)
    if (attributed) triples.push(attributed)
  }
  for (const m of facts.markers) {
    const { peerId: _asWritten, ...marker } = m
    if (speakers.turns.length === 0) {
      markers.push(marker)
      continue
    }
    const peerId = markerPeer(m, speakers)
    if (peerId && speakers.humans.includes(peerId)) markers.push({ ...marker, peerId })
  }
  const entityTypes = facts.entityTypes.map((e) => ({
    ...e,
    entity: speakers.peerNamed(e.entity) ?? e.entity,
  }))
  return {
    triples,
    markers,
    entityTypes,
    dropped: {
      triples: facts.triples.length - triples.length,
      markers: facts.markers.length - markers.length,
    },
  }
}
