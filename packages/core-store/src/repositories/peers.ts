import type { Kysely, Selectable } from 'kysely'
import { _filterFor, type FilterTarget, PEER_FILTER_FIELDS } from '../filter'
import { StoreError } from '../kernel/errors'
import type { HyMemDatabase, PeerRole, PeersTable } from '../kernel/tables'
import { objectText, parseObject, requireId } from './json'
import { listPage } from './pagination'
import { inferPeerRole } from './peer-role'
import type { RepositoryScope } from './scope'
import type { Peer, PeersRepository } from './types'
import { selectInWorkspace } from './workspace-rows'
import { ensureWorkspace } from './workspaces'

const PEER_ROLES: readonly PeerRole[] = ['user', 'assistant', 'system', 'tool', 'other']

const PEER_TARGET: FilterTarget<keyof typeof PEER_FILTER_FIELDS> = {
  name: 'peers',
  kinds: PEER_FILTER_FIELDS,
  columns: {
    id: 'peers.id',
    workspaceId: 'peers.workspace_id',
    createdAt: 'peers.created_at',
    metadata: 'peers.metadata',
  },
}

export function toPeer(row: Selectable<PeersTable>): Peer {
  return {
    workspaceId: row.workspace_id,
    id: row.id,
    role: row.role,
    metadata: parseObject(row.metadata),
    configuration: parseObject(row.configuration),
    createdAt: row.created_at,
  }
}

export function checkPeerRole(role: unknown): PeerRole | undefined {
  if (role === undefined) return undefined
  if (!PEER_ROLES.includes(role as PeerRole)) {
    throw new StoreError('INVALID_INPUT', `peer role must be one of ${PEER_ROLES.join(', ')}`)
  }
  return role as PeerRole
}

/** Inserts the peer (role inferred from its id when not given) when missing; true when created. */
export async function ensurePeer(
  db: Kysely<HyMemDatabase>,
  workspaceId: string,
  id: string,
  now: string,
  init: { role?: PeerRole; metadata?: string; configuration?: string } = {},
): Promise<boolean> {
  const result = await db
    .insertInto('peers')
    .values({
      workspace_id: workspaceId,
      id,
      role: init.role ?? inferPeerRole(id),
      created_at: now,
      ...(init.metadata === undefined ? {} : { metadata: init.metadata }),
      ...(init.configuration === undefined ? {} : { configuration: init.configuration }),
    })
    .onConflict((oc) => oc.columns(['workspace_id', 'id']).doNothing())
    .executeTakeFirst()
  return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
}

export function createPeersRepository(scope: RepositoryScope): PeersRepository {
  const { db, context } = scope
  const select = (executor: Kysely<HyMemDatabase>, workspaceId: string, id: string) =>
    executor
      .selectFrom('peers')
      .selectAll()
      .where('workspace_id', '=', workspaceId)
      .where('id', '=', id)
      .executeTakeFirstOrThrow()

  return {
    async getOrCreate(workspaceId, id, init = {}) {
      requireId(workspaceId, 'workspace id')
      requireId(id, 'peer id')
      const role = checkPeerRole(init.role)
      const metadata = objectText(init.metadata, 'metadata')
      const configuration = objectText(init.configuration, 'configuration')
      return scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        const created = await ensurePeer(tx, workspaceId, id, now, { role, metadata, configuration })
        return { value: toPeer(await select(tx, workspaceId, id)), created }
      })
    },
    async get(workspaceId, id) {
      const row = await selectInWorkspace(db, 'peers', workspaceId).where('id', '=', id).executeTakeFirst()
      return row ? toPeer(row) : null
    },
    async list(workspaceId, request, filter) {
      const matching = db
        .selectFrom('peers')
        .where('workspace_id', '=', workspaceId)
        .where(_filterFor(scope.engine, PEER_TARGET, filter))
      return listPage(
        request,
        matching,
        (rows, direction) => rows.selectAll().orderBy('created_at', direction).orderBy('id', direction),
        toPeer,
      )
    },
    async update(workspaceId, id, patch) {
      requireId(workspaceId, 'workspace id')
      requireId(id, 'peer id')
      const metadata = objectText(patch.metadata, 'metadata')
      const configuration = objectText(patch.configuration, 'configuration')
      return scope.write(async (tx) => {
        const now = context.now()
        await ensureWorkspace(tx, workspaceId, now)
        const created = await ensurePeer(tx, workspaceId, id, now, { metadata, configuration })
        if (!created && (metadata !== undefined || configuration !== undefined)) {
          await tx
            .updateTable('peers')
            .set({
              ...(metadata === undefined ? {} : { metadata }),
              ...(configuration === undefined ? {} : { configuration }),
            })
            .where('workspace_id', '=', workspaceId)
            .where('id', '=', id)
            .execute()
        }
        return toPeer(await select(tx, workspaceId, id))
      })
    },
    async listAll(workspaceId) {
      const rows = await selectInWorkspace(db, 'peers', workspaceId).orderBy('id').execute()
      return rows.map(toPeer)
    },
    async insertIfAbsent(peer) {
      requireId(peer.workspaceId, 'workspace id')
      requireId(peer.id, 'peer id')
      const role = checkPeerRole(peer.role)
      const metadata = objectText(peer.metadata, 'metadata')
      const configuration = objectText(peer.configuration, 'configuration')
      const result = await scope.write((tx) =>
        tx
          .insertInto('peers')
          .values({
            workspace_id: peer.workspaceId,
            id: peer.id,
            created_at: peer.createdAt,
            ...(role === undefined ? {} : { role }),
            ...(metadata === undefined ? {} : { metadata }),
            ...(configuration === undefined ? {} : { configuration }),
          })
          .onConflict((oc) => oc.doNothing())
          .executeTakeFirst(),
      )
      return Number(result.numInsertedOrUpdatedRows ?? 0) > 0
    },
  }
}
