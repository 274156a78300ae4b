import type { HyMemRecords } from 'hymem'
import { HonchoHttpError } from '../errors'
import { dropNulls } from '../wire/sanitize'

/** Most members of one session with `observe_others: true`. */
export const MAX_OBSERVERS = 10

type PeersMap = Readonly<
  Record<string, { observe_me?: boolean | null; observe_others?: boolean | null } | null | undefined>
>

/**
 * Adds the listed peers (creating them) as members of a session. Existing members keep their configuration
 * unless `replaceConfig`; with `replaceMembers` the members not listed are marked as left. 400 when more than
 * ten members would observe others. Runs inside the caller's transaction.
 */
export async function addMembers(
  tx: HyMemRecords,
  workspaceId: string,
  sessionId: string,
  peers: PeersMap,
  options: { replaceMembers?: boolean } = {},
): Promise<void> {
  const current = await tx.sessions.listPeers(workspaceId, sessionId)
  const currentById = new Map(current.map((member) => [member.peerId, member]))
  const listed = Object.keys(peers)
  const configOf = (peerId: string) => {
    const given = peers[peerId]
    const existing = currentById.get(peerId)
    if (existing) return existing.configuration
    return given ? dropNulls(given) : {}
  }
  const remaining = options.replaceMembers
    ? listed
    : [...new Set([...current.map((m) => m.peerId), ...listed])]
  const observers = remaining.filter((peerId) => configOf(peerId).observe_others === true).length
  if (observers > MAX_OBSERVERS) {
    throw new HonchoHttpError(
      'BAD_REQUEST',
      `A session may have at most ${MAX_OBSERVERS} peers with observe_others`,
    )
  }
  for (const peerId of listed) await tx.peers.getOrCreate(workspaceId, peerId)
  const added = listed.filter((peerId) => !currentById.has(peerId))
  if (added.length > 0) {
    await tx.sessions.addPeers(
      workspaceId,
      sessionId,
      added.map((peerId) => ({ peerId, configuration: configOf(peerId) })),
    )
  }
  if (options.replaceMembers) {
    const leaving = current.map((m) => m.peerId).filter((peerId) => !listed.includes(peerId))
    if (leaving.length > 0) await tx.sessions.removePeers(workspaceId, sessionId, leaving)
  }
}
