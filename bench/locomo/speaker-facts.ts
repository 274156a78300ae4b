import { normalize, type Store } from '@hymem/core-store'
import type { LocomoConversation } from './dataset'

/** How many graph facts one conversation's dream gave each speaker, and how many named no speaker. */
export interface SpeakerFacts {
  readonly conversation: string
  /** Speaker name → extracted, active facts whose subject is that speaker's peer. */
  readonly speakers: Readonly<Record<string, number>>
  /** Active facts under the plain-text speaker `user` (a chunk whose speakers were not read). */
  readonly unattributed: number
  /** Every other active extracted fact (about things, or people who are not peers). */
  readonly other: number
}

/** Counts the active, extracted (not inferred) facts of the conversation's workspace per speaker. */
export async function countSpeakerFacts(
  store: Store,
  workspaceId: string,
  conversation: LocomoConversation,
  peerIdOf: (speaker: string) => string,
): Promise<SpeakerFacts> {
  const edges = (await store.edges.listAll(workspaceId)).filter(
    (edge) => edge.status === 'active' && !edge.derived,
  )
  const speakers: Record<string, number> = {}
  const bySubject = new Map<string, string>()
  for (const speaker of conversation.speakers) {
    speakers[speaker] = 0
    bySubject.set(normalize(peerIdOf(speaker)), speaker)
  }
  let unattributed = 0
  let other = 0
  for (const edge of edges) {
    const speaker = bySubject.get(edge.subject)
    if (speaker !== undefined) speakers[speaker] = (speakers[speaker] ?? 0) + 1
    else if (edge.subject === 'user') unattributed++
    else other++
  }
  return { conversation: conversation.sampleId, speakers, unattributed, other }
}

/** One line per conversation: `conv-26: Caroline 41, Melanie 37, unattributed 0, other 12`. */
export function formatSpeakerFacts(rows: readonly SpeakerFacts[]): string[] {
  return rows.map(
    (row) =>
      `facts per speaker, ${row.conversation}: ${Object.entries(row.speakers)
        .map(([speaker, n]) => `${speaker} ${n}`)
        .join(', ')}, unattributed ${row.unattributed}, other ${row.other}`,
  )
}
