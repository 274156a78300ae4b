import { loadTokenCounter, type Message, type Session } from '@hymem/core-store'
import { HonchoHttpError } from '../errors'
import type { HonchoMemory } from '../types'
import { messageOut, type WireMessage } from '../wire/shapes'
import { memoryStatements, userStatements } from './managed-markdown'
import { peerCard } from './peer-card'
import { peerProfile } from './peer-profile'
import { buildRepresentation } from './representation'
import { chooseSummary, type SessionSummary, sessionSummaries, type WireSummary } from './summaries'

export interface SessionContextRequest {
  readonly tokens: number
  readonly summary: boolean
  readonly peerTarget?: string | undefined
  readonly peerPerspective?: string | undefined
  readonly scope?: string | undefined
  readonly sessions?: readonly string[] | undefined
  readonly limitToSession: boolean
  readonly searchQuery?: string | undefined
  readonly searchTopK?: number | undefined
  readonly searchMaxDistance?: number | undefined
  readonly includeMostFrequent: boolean
  readonly maxConclusions: number
}

export interface WireSessionContext {
  id: string
  messages: WireMessage[]
  summary: WireSummary | null
  peer_representation: string | null
  peer_card: string[] | null
}

function checkCombination(session: Session, r: SessionContextRequest): void {
  const needsTarget = (what: string) => new HonchoHttpError('VALIDATION', `${what} requires peer_target`)
  if (!r.peerTarget) {
    if (r.peerPerspective) throw needsTarget('peer_perspective')
    if (r.scope) throw needsTarget('scope')
    if (r.sessions) throw needsTarget('sessions')
  }
  if (r.scope && r.peerPerspective)
    throw new HonchoHttpError('VALIDATION', 'scope and peer_perspective are exclusive')
  if (r.sessions) {
    if (r.scope || r.limitToSession) {
      throw new HonchoHttpError('VALIDATION', 'sessions cannot be combined with scope or limit_to_session')
    }
    if (!r.sessions.includes(session.id)) {
      throw new HonchoHttpError('VALIDATION', `sessions must include the session ${session.id}`)
    }
  }
}

/** The peer the context is about: `peer_target`, else the session's one human member, else none. */
async function targetOf(memory: HonchoMemory, session: Session, request: SessionContextRequest) {
  if (request.peerTarget) return request.peerTarget
  const members = await memory.sessions.listPeers(session.workspaceId, session.id)
  const ids = new Set(members.map((member) => member.peerId))
  const peers = await memory.peers.listAll(session.workspaceId)
  const humans = peers.filter((peer) => ids.has(peer.id) && peer.role === 'user')
  return humans.length === 1 ? humans[0]!.id : undefined
}

/**
 * The peer's profile (USER.md narrowed to the peer; unless the card is built from it) and the workspace's
 * insights (MEMORY.md) as Markdown sections after the representation, as seed 000's session start promises.
 */
async function profileSections(
  memory: HonchoMemory,
  workspaceId: string,
  peerId: string,
  withProfile: boolean,
): Promise<string> {
  const profile = await memory.profileData({ workspaceId })
  const section = (title: string, lines: readonly string[]) =>
    lines.length > 0 ? `## ${title}\n${lines.map((line) => `- ${line}`).join('\n')}` : ''
  return [
    withProfile
      ? section('Profile', userStatements(await peerProfile(memory, workspaceId, peerId, profile)))
      : '',
    section('Insights', memoryStatements(profile)),
  ]
    .filter(Boolean)
    .join('\n\n')
}

/**
 * Honcho's session context (§7.2): representation and card of the target peer first (`peer_target`, else
 * the session's one human member), with that peer's profile and the insights, then the most recent
 * messages that fit what remains. A summary never displaces messages that fit: only when the older messages
 * do not all fit does one (in 40 % of the budget) stand in for them, beside the newest messages that still fit.
 */
export async function sessionContext(
  memory: HonchoMemory,
  session: Session,
  request: SessionContextRequest,
): Promise<WireSessionContext> {
  checkCombination(session, request)
  const ws = session.workspaceId
  let limit = request.tokens
  let representation: string | null = null
  let card: string[] | null = null
  const target = await targetOf(memory, session, request)
  if (target) {
    let sessionIds: string[] | undefined
    if (request.limitToSession) sessionIds = [session.id]
    else if (request.sessions) sessionIds = [...request.sessions]
    else if (request.scope) sessionIds = await memory.scopes.sessionIds(ws, [request.scope])
    const observer = request.peerPerspective ?? target
    representation = await buildRepresentation(memory, {
      workspaceId: ws,
      observer,
      observed: target,
      ...(sessionIds ? { sessionIds } : {}),
      ...(request.searchQuery ? { searchQuery: request.searchQuery } : {}),
      ...(request.searchTopK ? { searchTopK: request.searchTopK } : {}),
      ...(request.searchMaxDistance !== undefined ? { searchMaxDistance: request.searchMaxDistance } : {}),
      includeMostFrequent: request.includeMostFrequent,
      maxConclusions: request.maxConclusions,
    })
    const allowlisted = request.limitToSession || request.sessions !== undefined
    card = allowlisted ? null : await peerCard(memory, ws, observer, target)
    // A card written with PUT replaces the one built from the profile, so the profile comes here then.
    const profileInCard = card !== null && (await memory.peerCards.get(ws, observer, target)) === null
    const extra = allowlisted ? '' : await profileSections(memory, ws, target, !profileInCard)
    representation = [representation, extra].filter(Boolean).join('\n\n')
    const countTokens = await loadTokenCounter()
    limit -= countTokens(representation) + (card ? countTokens(card.join('\n')) : 0)
  }
  const recent = await recentMessages(memory, session, limit)
  let messages = recent.picked
  let chosen: SessionSummary | null = null
  if (request.summary && limit > 0 && !recent.all) {
    chosen = chooseSummary(await sessionSummaries(memory, session), limit)
    if (chosen) messages = newestWithin(messages, limit - chosen.wire.token_count)
  }
  return {
    id: session.id,
    messages: messages.map((m) => messageOut(m)),
    summary: chosen?.wire ?? null,
    peer_representation: target ? representation : null,
    peer_card: target ? card : null,
  }
}

/** Messages read per step while walking back from the newest (small first: budgets are usually small). */
const BATCHES = [100, 400, 2000]

/** The newest messages whose token sum stays within `budget`, oldest first; `all` when none was left out. */
async function recentMessages(
  memory: HonchoMemory,
  session: Session,
  budget: number,
): Promise<{ picked: Message[]; all: boolean }> {
  const picked: Message[] = []
  let used = 0
  let beforeId: number | undefined
  for (let step = 0; ; step++) {
    const limit = BATCHES[Math.min(step, BATCHES.length - 1)]!
    const batch = await memory.messages.recent(session.workspaceId, {
      sessionId: session.id,
      limit,
      ...(beforeId !== undefined ? { beforeId } : {}),
    })
    for (const message of batch) {
      if (used + message.tokenCount > budget) return { picked: picked.reverse(), all: false }
      used += message.tokenCount
      picked.push(message)
    }
    if (batch.length < limit) return { picked: picked.reverse(), all: true }
    beforeId = batch.at(-1)!.id
  }
}

/** The newest of `messages` (oldest first) whose token sum stays within `budget`, oldest first. */
function newestWithin(messages: readonly Message[], budget: number): Message[] {
  let used = 0
  let start = messages.length
  while (start > 0 && used + messages[start - 1]!.tokenCount <= budget) {
    start -= 1
    used += messages[start]!.tokenCount
  }
  return messages.slice(start)
}
