import { loadTokenCounter, type Message, type Session } from '@hymem/core-store'
import type { HonchoMemory } from '../types'
import { memoryStatements, userStatements } from './managed-markdown'
import { cadencePoint, summaryCadence } from './summary-cadence'

export interface WireSummary {
  content: string
  message_id: string
  summary_type: 'honcho_chat_summary_short' | 'honcho_chat_summary_long'
  created_at: string
  token_count: number
}

export interface SessionSummary {
  readonly wire: WireSummary
  /** Internal id of the last message the summary covers. */
  readonly coversMessageId: number
}

interface SessionSummaries {
  readonly short: SessionSummary | null
  readonly long: SessionSummary | null
}

const NONE: SessionSummaries = { short: null, long: null }

/** Second precision, `Z` zone: `2026-08-20T15:42:38Z`. */
function secondPrecision(iso: string): string {
  return `${iso.slice(0, 19)}Z`
}

/** The session's message `back` places before its newest message with an id up to `upToId`. */
async function messageBefore(
  memory: HonchoMemory,
  session: Session,
  upToId: number,
  back: number,
): Promise<Message | null> {
  const newestFirst = await memory.messages.recent(session.workspaceId, {
    sessionId: session.id,
    beforeId: upToId + 1,
    limit: back + 1,
  })
  return newestFirst[back] ?? null
}

/**
 * The session's summaries on Honcho's cadence (`configuration.summary` of the session, else of the workspace:
 * on, a short one every 20 messages, a long one every 60). Dreaming writes one summary of the session from
 * the messages it has read (those after its last salient chunk held nothing to extract); a summary type
 * exists once the dreams have read a multiple of its interval, and covers the session up to the last such
 * multiple. The short one is the dreaming summary; the long one adds the workspace's MEMORY.md insights and
 * USER.md profile to it as plain prose (from the typed profile data, with the files' hand-written text).
 */
export async function sessionSummaries(memory: HonchoMemory, session: Session): Promise<SessionSummaries> {
  const text = session.summary
  if (!text || session.summaryMessageId === null) return NONE
  const workspace = await memory.workspaces.get(session.workspaceId)
  const cadence = summaryCadence(workspace?.configuration ?? {}, session.configuration)
  if (!cadence.enabled) return NONE
  const [read] = await memory.sessions.listChunkWatermarks(session.workspaceId, session.id)
  const readUpTo = Math.max(session.summaryMessageId, read?.lastChunkedMessageId ?? 0)
  const summarised = await memory.messages.count(session.workspaceId, {
    sessionId: session.id,
    upToId: readUpTo,
  })
  const shortAt = cadencePoint(summarised, cadence.short)
  const longAt = cadencePoint(summarised, cadence.long)
  if (shortAt === 0 && longAt === 0) return NONE
  const countTokens = await loadTokenCounter()
  const createdAt = secondPrecision(session.summaryUpdatedAt ?? session.createdAt)
  const summary = async (
    position: number,
    type: WireSummary['summary_type'],
    content: string,
  ): Promise<SessionSummary | null> => {
    const covered =
      position === 0 ? null : await messageBefore(memory, session, readUpTo, summarised - position)
    if (!covered) return null
    return {
      wire: {
        content,
        message_id: covered.publicId,
        summary_type: type,
        created_at: createdAt,
        token_count: countTokens(content),
      },
      coversMessageId: covered.id,
    }
  }
  let longText = text
  if (longAt > 0) {
    const profile = await memory.profileData({ workspaceId: session.workspaceId })
    longText = [text, memoryStatements(profile).join(' '), userStatements(profile).join(' ')]
      .filter((part) => part.length > 0)
      .join('\n\n')
  }
  return {
    short: await summary(shortAt, 'honcho_chat_summary_short', text),
    long: await summary(longAt, 'honcho_chat_summary_long', longText),
  }
}

/** §7.2 step 3: the long summary when it fits 40 % of the budget and is longer, else the short one if it fits. */
export function chooseSummary(summaries: SessionSummaries, limit: number): SessionSummary | null {
  const budget = Math.floor(0.4 * limit)
  const { short, long } = summaries
  if (long && long.wire.token_count <= budget && long.wire.token_count > (short?.wire.token_count ?? 0))
    return long
  if (short && short.wire.token_count > 0 && short.wire.token_count <= budget) return short
  return null
}
