import type { HonchoMemory } from '../types'
import { userStatements } from './managed-markdown'

/**
 * The card of `observed` as seen by `observer`: the card stored with PUT, else the consolidated profile
 * entries of that peer, else (for user-role peers) USER.md's statements (the whole profile and the
 * hand-written text) as plain sentences; null when there is nothing.
 */
export async function peerCard(
  memory: HonchoMemory,
  workspaceId: string,
  observer: string,
  observed: string,
): Promise<string[] | null> {
  const store = memory.store
  const stored = await store.peerCards.get(workspaceId, observer, observed)
  if (stored) return stored
  const entries = await store.markers.profileEntries(workspaceId, {
    peerId: observed,
    supportedOnly: true,
    ties: 'last-seen',
    limit: 40,
  })
  if (entries.length > 0) return entries.map((entry) => `${entry.kind.toUpperCase()}: ${entry.statement}`)
  const peer = await store.peers.get(workspaceId, observed)
  if (peer?.role !== 'user') return null
  const lines = userStatements(await memory.profileData({ workspaceId }))
  return lines.length > 0 ? lines : null
}
