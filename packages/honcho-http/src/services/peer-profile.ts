import type { ProfileData } from 'hymem'
import type { HonchoMemory } from '../types'

/**
 * USER.md narrowed to one peer: that peer's profile entries, and the hand-written notes and the entries of
 * no peer only when the peer is the workspace's one human (people write USER.md about "the user"; with several humans it is
 * nobody's in particular).
 */
export async function peerProfile(
  memory: HonchoMemory,
  workspaceId: string,
  peerId: string,
  profile?: ProfileData,
): Promise<ProfileData> {
  const [data, peers] = await Promise.all([
    profile ?? memory.profileData({ workspaceId }),
    memory.peers.listAll(workspaceId),
  ])
  const humans = peers.filter((peer) => peer.role === 'user')
  const soleHuman = humans.length === 1 && humans[0]!.id === peerId
  return {
    ...data,
    entries: data.entries.filter(
      (entry) => entry.peerId === peerId || (soleHuman && (entry.peerId ?? '') === ''),
    ),
    userNotes: soleHuman ? data.userNotes : '',
  }
}

/**
 * The sessions through which `observer` sees `observed` (Honcho's perspective): those the observer is a
 * member of with `observe_others: true` where the observed peer, when a member, has not turned `observe_me`
 * off; none when the observed peer's own configuration says `observe_me: false`.
 */
export async function observableSessions(
  memory: HonchoMemory,
  workspaceId: string,
  observer: string,
  observed: string,
): Promise<{ sessionId: string; withObserved: boolean }[]> {
  const peer = await memory.peers.get(workspaceId, observed)
  if (peer?.configuration.observe_me === false) return []
  const out: { sessionId: string; withObserved: boolean }[] = []
  for (const sessionId of await memory.sessions.listIdsForPeer(workspaceId, observer)) {
    const members = await memory.sessions.listPeers(workspaceId, sessionId)
    const seer = members.find((member) => member.peerId === observer)
    const seen = members.find((member) => member.peerId === observed)
    if (seer?.configuration.observe_others !== true || seen?.configuration.observe_me === false) continue
    out.push({ sessionId, withObserved: seen !== undefined })
  }
  return out
}

/**
 * Whether `observer` could have seen `observed` itself: always for itself; another peer only through a
 * session both are members of (see {@link observableSessions}).
 */
export async function canObserve(
  memory: HonchoMemory,
  workspaceId: string,
  observer: string,
  observed: string,
): Promise<boolean> {
  if (observer === observed) return true
  return (await observableSessions(memory, workspaceId, observer, observed)).some((s) => s.withObserved)
}
