import { tokenizeForFts } from '@hymem/core-store'
import type { SearchContext } from './context'

/** Peers whose id the message names, and the (lower-case) words that named them. */
export interface PeerMentions {
  readonly peers: ReadonlySet<string>
  readonly words: ReadonlySet<string>
}

/** Longest message prefix scanned for peer names (characters). */
const MAX_SCAN_CHARS = 2000

/**
 * Finds the workspace's peers named in a message: a peer id matches when its words (split like FTS5 splits
 * text, case-folded) occur consecutively in the message, e.g. peer `alice` in "What did Alice say?".
 */
export async function findPeerMentions(ctx: SearchContext, message: string): Promise<PeerMentions> {
  const words = [...tokenizeForFts(message.slice(0, MAX_SCAN_CHARS))].map((word) => word.toLowerCase())
  if (words.length === 0) return { peers: new Set(), words: new Set() }
  const peers = await ctx.store.peers.listAll(ctx.workspaceId)
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
