import { normalize, type Store } from '@hymem/core-store'
import type { GraphFact } from '../types'

/** The subject the plain-text extractors give a speaker they could not name (several authors). */
const UNATTRIBUTED_SPEAKER = 'user'

/** The workspace's peers by canonical name (the form a fact about a peer has as its subject). */
export async function loadPeerSubjects(store: Store, workspaceId: string): Promise<Map<string, string>> {
  const subjects = new Map<string, string>()
  const claimed = new Set<string>()
  for (const peer of await store.peers.listAll(workspaceId)) {
    const canonical = normalize(peer.id)
    if (canonical === '') continue
    // Two peers whose ids normalize alike cannot be told apart: their facts name neither.
    if (claimed.has(canonical)) subjects.delete(canonical)
    else subjects.set(canonical, peer.id)
    claimed.add(canonical)
  }
  return subjects
}

/**
 * Tags each fact with the peer it is about (`aboutPeerId`) and, for a question about one peer, keeps only
 * that peer's facts and the shared world's: another peer's facts and facts under an unattributed speaker
 * (`user`, from chunks with several authors read before speakers were) are left out.
 */
export function factsForPeer(
  facts: readonly GraphFact[],
  subjects: ReadonlyMap<string, string>,
  peerId: string | undefined,
): GraphFact[] {
  const out: GraphFact[] = []
  for (const fact of facts) {
    const about = subjects.get(fact.subject)
    if (peerId !== undefined) {
      if (about !== undefined && about !== peerId) continue
      if (about === undefined && fact.subject === UNATTRIBUTED_SPEAKER) continue
    }
    out.push(about === undefined ? fact : { ...fact, aboutPeerId: about })
  }
  return out
}
