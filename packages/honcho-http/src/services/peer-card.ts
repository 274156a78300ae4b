import type { HonchoMemory } from '../types'
import { userStatements } from './managed-markdown'
import { canObserve, peerProfile } from './peer-profile'

/**
 * The card of `observed` as seen by `observer`: the card stored with PUT, else (when the observer could
 * have seen the observed peer, see {@link canObserve}) the consolidated profile entries of that peer, else
 * (for user-role peers) that peer's part of USER.md as plain sentences; null when there is nothing. Never
 * another peer's entries.
 */
export async function peerCard(
  memory: HonchoMemory,
  workspaceId: string,
  observer: string,
  observed: string,
): Promise<string[] | null> {
  const stored = await memory.peerCards.get(workspaceId, observer, observed)
  if (stored) return stored
  if (!(await canObserve(memory, workspaceId, observer, observed))) return null
  const entries = await memory.peers.profileEntries(workspaceId, {
    peerId: observed,
    supportedOnly: true,
    ties: 'last-seen',
    limit: 40,
  })
  if (entries.length > 0) return entries.map((entry) => `${entry.kind.toUpperCase()}: ${entry.statement}`)
  const peer = await memory.peers.get(workspaceId, observed)
  if (peer?.role !== 'user') return null
  const lines = userStatements(await peerProfile(memory, workspaceId, observed))
  return lines.length > 0 ? lines : null
}
