import { StoreError } from '../kernel/errors'
import { parseArray, requireId } from './json'
import { ensurePeer } from './peers'
import type { RepositoryScope } from './scope'
import { ensureWorkspace } from './workspaces'

/** Peer cards (`peer_cards`). */
export interface PeerCardsRepository {
  /** The card `observer` keeps about `observed` (lines of text), or null when none was stored. */
  get(workspaceId: string, observerId: string, observedId: string): Promise<string[] | null>
  /** Stores (replaces) the card, creating the workspace and both peers when missing. */
  set(workspaceId: string, observerId: string, observedId: string, card: readonly string[]): Promise<void>
}

export function createPeerCardsRepository(scope: RepositoryScope): PeerCardsRepository {
  const { db, context } = scope

  return {
    async get(workspaceId, observerId, observedId) {
      const row = await db
        .selectFrom('peer_cards')
        .select('card')
        .where('workspace_id', '=', workspaceId)
        .where('observer_id', '=', observerId)
        .where('observed_id', '=', observedId)
        .executeTakeFirst()
      if (!row) return null
      return parseArray(row.card).filter((line): line is string => typeof line === 'string')
    },
    async set(workspaceId, observerId, observedId, card) {
      requireId(workspaceId, 'workspace id')
      requireId(observerId, 'observer id')
      requireId(observedId, 'observed id')
      if (!Array.isArray(card) || card.some((line) => typeof line !== 'string')) {
        throw new StoreError('INVALID_INPUT', 'a peer card must be a list of strings')
      }
      const text = JSON.stringify(card)
      await scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        await ensurePeer(tx, workspaceId, observerId, now)
        if (observedId !== observerId) await ensurePeer(tx, workspaceId, observedId, now)
        await tx
          .insertInto('peer_cards')
          .values({
            workspace_id: workspaceId,
            observer_id: observerId,
            observed_id: observedId,
            card: text,
            updated_at: now,
          })
          .onConflict((oc) =>
            oc
              .columns(['workspace_id', 'observer_id', 'observed_id'])
              .doUpdateSet({ card: text, updated_at: now }),
          )
          .execute()
      })
    },
  }
}
