import { loadTokenCounter, type Session } from '@hymem/core-store'
import type { HonchoMemory } from '../types'
import { memoryStatements, userStatements } from './managed-markdown'

export interface WireSummary {
  content: string
  message_id: string
  summary_type: 'honcho_chat_summary_short' | 'honcho_chat_summary_long'
  created_at: string
  token_count: number
}

export interface SessionSummary {
  readonly wire: WireSummary
  /** Internal id of the last message the summary covers (messages start there), or null when it covers none. */
  readonly coversMessageId: number | null
}

/** Second precision, `Z` zone: `2026-08-20T15:42:38Z`. */
function secondPrecision(iso: string): string {
  return `${iso.slice(0, 19)}Z`
}

/**
 * The session's summaries: the short one is the dreaming summary of the session; the long one adds the
 * workspace's MEMORY.md insights and USER.md profile to it as plain prose (from the typed profile data, with
 * the files' hand-written text; present whenever any of the three has text).
 */
export async function sessionSummaries(
  memory: HonchoMemory,
  session: Session,
): Promise<{ short: SessionSummary | null; long: SessionSummary | null }> {
  const store = memory.store
  const countTokens = await loadTokenCounter()
  let short: SessionSummary | null = null
  let coveredPublicId: string | null = null
  if (session.summary && session.summaryMessageId !== null) {
    const covered = await store.messages.getByIds(session.workspaceId, [session.summaryMessageId])
    coveredPublicId = covered[0]?.publicId ?? null
  }
  if (session.summary && coveredPublicId) {
    short = {
      wire: {
        content: session.summary,
        message_id: coveredPublicId,
        summary_type: 'honcho_chat_summary_short',
        created_at: secondPrecision(session.summaryUpdatedAt ?? session.createdAt),
        token_count: countTokens(session.summary),
      },
      coversMessageId: session.summaryMessageId,
    }
  }
  const profile = await memory.profileData({ workspaceId: session.workspaceId })
  const parts = [
    short?.wire.content ?? '',
    memoryStatements(profile).join(' '),
    userStatements(profile).join(' '),
  ].filter((part) => part.length > 0)
  if (parts.length === 0 || (short && parts.length === 1)) return { short, long: null }
  let messageId = coveredPublicId
  if (!messageId) {
    const [last] = await store.messages.recent(session.workspaceId, { sessionId: session.id, limit: 1 })
    messageId = last?.publicId ?? ''
  }
  const content = parts.join('\n\n')
  return {
    short,
    long: {
      wire: {
        content,
        message_id: messageId,
        summary_type: 'honcho_chat_summary_long',
        created_at: secondPrecision(session.summaryUpdatedAt ?? store.context.now()),
        token_count: countTokens(content),
      },
      coversMessageId: short?.coversMessageId ?? null,
    },
  }
}

/** §7.2 step 3: the long summary when it fits 40 % of the budget and is longer, else the short one if it fits. */
export function chooseSummary(
  summaries: { short: SessionSummary | null; long: SessionSummary | null },
  limit: number,
): SessionSummary | null {
  const budget = Math.floor(0.4 * limit)
  const { short, long } = summaries
  if (long && long.wire.token_count <= budget && long.wire.token_count > (short?.wire.token_count ?? 0))
    return long
  if (short && short.wire.token_count > 0 && short.wire.token_count <= budget) return short
  return null
}
