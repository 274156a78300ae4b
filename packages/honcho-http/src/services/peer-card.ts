import type { HonchoMemory } from '../types'
import { markdownStatements } from './managed-markdown'

/**
 * The card of `observed` as seen by `observer`: the card stored with PUT, else the consolidated profile
 * entries of that peer, else (for user-role peers) the USER.md statements as
 * plain sentences; null when there is nothing.
 */
export async function peerCard(
  memory: HonchoMemory,
  workspaceId: string,
  observer: string,
  observed: string,
): Promise<string[] | null> {
  const db = memory.store.db
  const stored = await db
    .selectFrom('peer_cards')
    .select('card')
    .where('workspace_id', '=', workspaceId)
    .where('observer_id', '=', observer)
    .where('observed_id', '=', observed)
    .executeTakeFirst()
  if (stored) {
    const card: unknown = JSON.parse(stored.card)
    if (Array.isArray(card)) return card.filter((line): line is string => typeof line === 'string')
  }
  const entries = await db
    .selectFrom('profile_entries')
    .select(['kind', 'statement'])
    .where('workspace_id', '=', workspaceId)
    .where('peer_id', '=', observed)
    .whereRef('pos_evidence', '>', 'neg_evidence')
    .orderBy('pos_evidence', 'desc')
    .orderBy('last_seen', 'desc')
    .limit(40)
    .execute()
  if (entries.length > 0) return entries.map((entry) => `${entry.kind.toUpperCase()}: ${entry.statement}`)
  const peer = await db
    .selectFrom('peers')
    .select('role')
    .where('workspace_id', '=', workspaceId)
    .where('id', '=', observed)
    .executeTakeFirst()
  if (peer?.role !== 'user') return null
  const { userMd } = await memory.profile({ workspaceId })
  const lines = markdownStatements(userMd)
  return lines.length > 0 ? lines : null
}
