import { type Store, tokenizeForFts } from '@hymem/core-store'
import { escapeRegExp } from '../reg-exp'

/** Peers whose id the message names, and the (lower-case) words that named them. */
export interface PeerMentions {
  readonly peers: ReadonlySet<string>
  readonly words: ReadonlySet<string>
}

/** Longest message prefix scanned for peer names (characters). */
const MAX_SCAN_CHARS = 2000

/** No peer named. */
export const NO_PEER_MENTIONS: PeerMentions = { peers: new Set(), words: new Set() }

/**
 * Finds the workspace's peers named in a message: a peer id matches when its words (split like FTS5 splits
 * text, case-folded) occur consecutively in the message, e.g. peer `alice` in "What did Alice say?".
 */
export async function findPeerMentions(
  store: Store,
  workspaceId: string,
  message: string,
): Promise<PeerMentions> {
  const words = [...tokenizeForFts(message.slice(0, MAX_SCAN_CHARS))].map((word) => word.toLowerCase())
  if (words.length === 0) return NO_PEER_MENTIONS
  const peers = await store.peers.listAll(workspaceId)
  return matchPeers(
    peers.map((peer) => peer.id),
    words,
  )
}

/** The pure part of {@link findPeerMentions}: `words` are the message's lower-case words in order. */
export function matchPeers(peerIds: readonly string[], words: readonly string[]): PeerMentions {
  const peers = new Set<string>()
  const named = new Set<string>()
  for (const id of peerIds) {
    const parts = [...tokenizeForFts(id)].map((part) => part.toLowerCase())
    if (parts.length === 0) continue
    for (let start = 0; start + parts.length <= words.length; start++) {
      if (parts.every((part, offset) => words[start + offset] === part)) {
        peers.add(id)
        for (const part of parts) named.add(part)
        break
      }
    }
  }
  return { peers, words: named }
}

/**
 * The query as the peers it names would have said it, for the query's vector: turns are embedded after their
 * author's name and told in the first person, so "When did Nate win his third tourney?" is embedded as "When
 * did I win his third tourney?". With the name left in, the name alone pulls that peer's shortest turns
 * ("nate: See ya!") nearest; the author counts through the peer-mention boost instead.
 */
export function inFirstPerson(message: string, peers: ReadonlySet<string>): string {
  const names = [...peers].flatMap((id) => {
    const parts = [...tokenizeForFts(id)].map(escapeRegExp)
    return parts.length === 0 ? [] : [parts.join('[^\\p{L}\\p{N}]+')]
  })
  if (names.length === 0) return message
  const named = new RegExp(
    `(?<![\\p{L}\\p{N}\\p{M}])(?:${names.join('|')})(['’]s)?(?![\\p{L}\\p{N}\\p{M}])`,
    'giu',
  )
  return message.replace(named, (_name, possessive: string | undefined) => (possessive ? 'my' : 'I'))
}
