import type { Insertable, Selectable } from 'kysely'
import { StoreError } from '../kernel/errors'
import type { PeerCardsTable } from '../kernel/tables'
import { parseArray, requireId } from './json'
import { ensurePeer } from './peers'
import type { RepositoryScope } from './scope'
import { selectInWorkspace } from './workspace-rows'
import { ensureWorkspace } from './workspaces'

/** A stored peer card: `card` is the stored JSON list as it is. */
export interface StoredPeerCard {
  readonly workspaceId: string
  readonly observerId: string
  readonly observedId: string
  readonly card: readonly unknown[]
  readonly updatedAt: string
}

export function toPeerCard(row: Selectable<PeerCardsTable>): StoredPeerCard {
  return {
    workspaceId: row.workspace_id,
    observerId: row.observer_id,
    observedId: row.observed_id,
    card: parseArray(row.card),
    updatedAt: row.updated_at,
  }
}

export function fromPeerCard(card: StoredPeerCard): Insertable<PeerCardsTable> {
  return {
    workspace_id: card.workspaceId,
    observer_id: card.observerId,
    observed_id: card.observedId,
    card: JSON.stringify(card.card),
    updated_at: card.updatedAt,
  }
}

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
      const row = await selectInWorkspace(db, 'peer_cards', workspaceId)
        .where('observer_id', '=', observerId)
        .where('observed_id', '=', observedId)
        .executeTakeFirst()
      if (!row) return null
      return toPeerCard(row).card.filter((line): line is string => typeof line === 'string')
    },
    async set(workspaceId, observerId, observedId, card) {
      requireId(workspaceId, 'workspace id')
      requireId(observerId, 'observer id')
      requireId(observedId, 'observed id')
      if (!Array.isArray(card) || card.some((line) => typeof line !== 'string')) {
        throw new StoreError('INVALID_INPUT', 'a peer card must be a list of strings')
      }
      await scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        await ensurePeer(tx, workspaceId, observerId, now)
        if (observedId !== observerId) await ensurePeer(tx, workspaceId, observedId, now)
        const row = fromPeerCard({ workspaceId, observerId, observedId, card, updatedAt: now })
        await tx
          .insertInto('peer_cards')
          .values(row)
          .onConflict((oc) =>
            oc
              .columns(['workspace_id', 'observer_id', 'observed_id'])
              .doUpdateSet({ card: row.card, updated_at: now }),
          )
          .execute()
      })
    },
  }
}
