import { describe, expect, it } from 'vitest'
import { conclusionIdOfEdge, edgeIdOfConclusion } from '../../src/repositories/conclusions'
import { builderOf } from '../../src/store/builder'
import type { Store } from '../../src/store/types'
import type { BackendUnderTest } from '../backends'
import { expectStoreError } from '../store-harness'

const T = (day: number) => `2026-01-0${day}T00:00:00.000Z`

async function seed(store: Store): Promise<{ edge: number }> {
  const [fromAlice, fromBob] = await store.messages.insertBatch('w', 's1', [
    { peerId: 'alice', content: 'I use Postgres' },
    { peerId: 'bob', content: 'Alice uses Postgres' },
  ])
  const note = (id: string, observer: string | null, observed: string | null, day: number, extra = {}) =>
    builderOf(store)
      .insertInto('notes')
      .values({
        id,
        workspace_id: 'w',
        description: id,
        content: `note ${id}`,
        observer_id: observer,
        observed_id: observed,
        created_at: T(day),
        updated_at: T(day),
        last_accessed_at: T(day),
        ...extra,
      })
      .execute()
  await note('n1', 'alice', 'bob', 1)
  await note('n2', 'alice', 'bob', 3, { times_derived: 4, session_id: 's1', level: 'inductive' })
  await note('n3', 'alice', 'bob', 5, { level: 'deductive', source_ids: '["n1","n2"]', metadata: '{"k":1}' })
  await note('n4', null, null, 2)
  await note('n5', 'alice', 'bob', 2, { archived_at: T(6) })
  const edge = async (
    subject: string,
    object: string,
    status: 'active' | 'retracted',
    validTo: string | null,
  ) => {
    const row = await builderOf(store)
      .insertInto('knowledge_graph')
      .values({
        workspace_id: 'w',
        subject,
        predicate: 'uses_daily',
        object,
        pos_evidence: 2,
        confidence: 0.8,
        status,
        first_seen: T(4),
        last_seen: T(4),
        last_reinforced: T(4),
        valid_from: T(4),
        valid_to: validTo,
      })
      .returning('id')
      .executeTakeFirstOrThrow()
    await builderOf(store)
      .insertInto('kg_evidence')
      .values({
        workspace_id: 'w',
        edge_id: row.id,
        message_ids: JSON.stringify([fromAlice!.id, fromBob!.id]),
        polarity: 1,
        observed_at: T(4),
        created_at: T(4),
      })
      .execute()
    return row.id
  }
  const active = await edge('alice', 'postgres', 'active', null)
  await edge('alice', 'mysql', 'retracted', null)
  await edge('alice', 'sqlite', 'active', T(5))
  return { edge: active }
}

/** The conclusions cases of the store contract, run against every backend. */
export function describeConclusionsContract(backend: BackendUnderTest) {
  describe('conclusions repository', () => {
    const stores = backend.use()

    it("unites paired, active notes with active graph facts: a fact about a peer is that peer's", async () => {
      const store = await stores.open()
      const { edge } = await seed(store)
      const all = await store.conclusions.find('w')
      expect(all.map((c) => c.id)).toEqual(['n3', `kg-${edge}`, 'n2', 'n1'])
      const graph = all.find((c) => c.id === `kg-${edge}`)
      expect(graph).toEqual({
        id: conclusionIdOfEdge(edge),
        content: 'alice uses daily postgres',
        observerId: 'alice',
        observedId: 'alice',
        sessionId: null,
        level: 'explicit',
        sourceIds: [],
        timesDerived: 2,
        metadata: { source: 'graph', confidence: 0.8, scope: 'peer' },
        createdAt: T(4),
      })
      expect(all.find((c) => c.id === 'n3')).toMatchObject({
        level: 'deductive',
        sourceIds: ['n1', 'n2'],
        metadata: { k: 1 },
      })
    })

    it('shows a fact about a peer to session members with observe_others, never past observe_me: false', async () => {
      const store = await stores.open()
      const { edge } = await seed(store)
      const graphPairs = async () =>
        (await store.conclusions.find('w', { filter: { op: 'eq', field: 'id', value: `kg-${edge}` } }))
          .map((c) => `${c.observerId}>${c.observedId}`)
          .sort()
      await store.sessions.addPeers('w', 's1', [{ peerId: 'bob', configuration: { observe_others: true } }])
      expect(await graphPairs()).toEqual(['alice>alice', 'bob>alice'])
      await store.sessions.addPeers('w', 's1', [{ peerId: 'alice', configuration: { observe_me: false } }])
      expect(await graphPairs()).toEqual([])
      await store.sessions.addPeers('w', 's1', [{ peerId: 'alice', configuration: {} }])
      await store.peers.update('w', 'alice', { configuration: { observe_me: false } })
      expect(await graphPairs()).toEqual([])
    })

    it('gives a shared-world fact to every participant and a legacy `user` fact only to a lone author', async () => {
      const store = await stores.open()
      const [a, b] = await store.messages.insertBatch('w', 's2', [
        { peerId: 'alice', content: 'billing uses redis' },
        { peerId: 'bob', content: 'I prefer vim' },
      ])
      await store.sessions.addPeers('w', 's2', [{ peerId: 'carol' }])
      const fact = async (subject: string, object: string, messageIds: number[]) => {
        const row = await builderOf(store)
          .insertInto('knowledge_graph')
          .values({
            workspace_id: 'w',
            subject,
            predicate: 'uses',
            object,
            pos_evidence: 1,
            confidence: 0.5,
            status: 'active',
            first_seen: T(4),
            last_seen: T(4),
            last_reinforced: T(4),
            valid_from: T(4),
          })
          .returning('id')
          .executeTakeFirstOrThrow()
        await builderOf(store)
          .insertInto('kg_evidence')
          .values({
            workspace_id: 'w',
            edge_id: row.id,
            message_ids: JSON.stringify(messageIds),
            polarity: 1,
            observed_at: T(4),
            created_at: T(4),
          })
          .execute()
        return `kg-${row.id}`
      }
      const world = await fact('billing', 'redis', [a!.id])
      const lone = await fact('user', 'vim', [b!.id])
      const shared = await fact('user', 'emacs', [a!.id, b!.id])
      const rows = await store.conclusions.find('w')
      const pairsOf = (id: string) =>
        rows
          .filter((c) => c.id === id)
          .map((c) => `${c.observerId}>${c.observedId}:${String(c.metadata.scope)}`)
          .sort()
      expect(pairsOf(world)).toEqual(['alice>alice:world', 'bob>bob:world', 'carol>carol:world'])
      expect(pairsOf(lone)).toEqual(['bob>bob:unattributed'])
      expect(pairsOf(shared)).toEqual([])
    })

    it('filters, orders and limits; pages newest first unless reversed', async () => {
      const store = await stores.open()
      await seed(store)
      const pair = {
        op: 'and',
        filters: [
          { op: 'eq', field: 'observerId', value: 'alice' },
          { op: 'eq', field: 'observedId', value: 'bob' },
        ],
      } as const
      expect((await store.conclusions.find('w', { filter: pair, order: 'oldest' })).map((c) => c.id)).toEqual(
        ['n1', 'n2', 'n3'],
      )
      expect(
        (await store.conclusions.find('w', { filter: pair, order: 'most-derived', limit: 1 }))[0]?.id,
      ).toBe('n2')
      const withSource = await store.conclusions.find('w', {
        filter: { op: 'hasId', field: 'sourceIds', id: 'n2' },
      })
      expect(withSource.map((c) => c.id)).toEqual(['n3'])
      const page = await store.conclusions.list('w', { size: 2, reverse: true }, pair)
      expect(page).toMatchObject({ total: 3, pages: 2 })
      expect(page.items.map((c) => c.id)).toEqual(['n1', 'n2'])
      await expectStoreError(store.conclusions.find('w', { limit: -2 }), 'INVALID_INPUT')
    })

    it('maps between graph conclusion ids and edge ids', () => {
      expect(conclusionIdOfEdge(42)).toBe('kg-42')
      expect(edgeIdOfConclusion('kg-42')).toBe(42)
      expect(edgeIdOfConclusion('V1StGXR8_Z5jdHi6B-myT')).toBeNull()
    })

    it('edges.getByIds reads edges of the workspace whatever their status', async () => {
      const store = await stores.open()
      const { edge } = await seed(store)
      expect((await store.edges.getByIds('w', [edge]))[0]).toMatchObject({
        id: edge,
        subject: 'alice',
        predicate: 'uses_daily',
        object: 'postgres',
        status: 'active',
        derived: false,
      })
      expect(await store.edges.getByIds('other', [edge])).toEqual([])
      expect((await store.edges.getByIds('w', [edge + 1]))[0]?.status).toBe('retracted')
    })
  })
}
