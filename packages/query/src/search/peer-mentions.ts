import { type Store, tokenizeForFts } from '@hymem/core-store'

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
 * `message` without the words that named peers (and their possessive "'s"), for the query's vector: every
 * message is embedded after its author's name, so a short turn ("Joanna: Bye!") sits near any query naming
 * its author. The author is weighed by the peer-mention boost instead. The message itself when nothing
 * else would be left.
 */
export function withoutPeerNames(message: string, words: ReadonlySet<string>): string {
  if (words.size === 0) return message
  const names = [...words].map((word) => word.replace(/[.*+?^${}()|[\]\\]/g, '\\$&')).join('|')
  const named = new RegExp(`(?<![\\p{L}\\p{N}\\p{M}])(?:${names})(?:['’]s)?(?![\\p{L}\\p{N}\\p{M}])`, 'giu')
  const left = message
    .replace(named, ' ')
    .replace(/[ \t]{2,}/g, ' ')
    .trim()
  return /[\p{L}\p{N}]/u.test(left) ? left : message
}
