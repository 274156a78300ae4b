import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../../test/store-harness'
import type { JsonFilter, MessageFilter, SessionFilter } from '../../filter/types'
import type { Store } from '../../store/types'

const ROWS = [
  {
    session: 's1',
    peer: 'alice',
    tokens: 3,
    at: '2024-01-01T10:00:00.000Z',
    meta: { type: 'support', age: 18, tags: ['a', 'b'], nested: { level: 2 } },
  },
  {
    session: 's1',
    peer: 'bob',
    tokens: 10,
    at: '2024-01-02T10:00:00.000Z',
    meta: { type: 'sales', vip: true },
  },
  {
    session: 's2',
    peer: 'alice',
    tokens: 7,
    at: '2024-02-01T00:00:00.000Z',
    meta: { type: 'Support Desk', note: null },
  },
  { session: 's2', peer: 'carol', tokens: 1, at: '2024-03-01T00:00:00.000Z', meta: {} },
]

describe('filters on SQLite', () => {
  const stores = useTempStores()

  async function seed(): Promise<{ store: Store; ids: number[] }> {
    const store = stores.open({ loadVectorExtension: false })
    const ids: number[] = []
    for (const row of ROWS) {
      const [message] = await store.messages.insertBatch('w', row.session, [
        {
          peerId: row.peer,
          content: `hello from ${row.peer}`,
          metadata: row.meta,
          tokenCount: row.tokens,
          createdAt: row.at,
        },
      ])
      ids.push(message!.id)
    }
    return { store, ids }
  }

  async function matching(filter: MessageFilter): Promise<number[]> {
    const { store, ids } = await seed()
    const found = await store.messages.findByIds('w', ids, filter)
    return found.map((m) => ids.indexOf(m.id) + 1)
  }

  it('compares plain fields: equality, ranges, in-lists, null tests and case-insensitive text', async () => {
    expect(await matching({ op: 'eq', field: 'peerId', value: 'alice' })).toEqual([1, 3])
    expect(await matching({ op: 'in', field: 'peerId', values: ['bob', 'carol'] })).toEqual([2, 4])
    expect(await matching({ op: 'in', field: 'peerId', values: [] })).toEqual([])
    expect(
      await matching({
        op: 'and',
        filters: [
          { op: 'gte', field: 'tokenCount', value: 3 },
          { op: 'lt', field: 'tokenCount', value: 10 },
        ],
      }),
    ).toEqual([1, 3])
    expect(await matching({ op: 'ne', field: 'tokenCount', value: 3 })).toEqual([2, 3, 4])
    expect(await matching({ op: 'gte', field: 'createdAt', value: '2024-01-02' })).toEqual([2, 3, 4])
    expect(await matching({ op: 'lt', field: 'createdAt', value: '2024-02-01T01:00:00+01:00' })).toEqual([
      1, 2,
    ])
    expect(await matching({ op: 'containsText', field: 'peerId', text: 'LI' })).toEqual([1, 3])
    expect(await matching({ op: 'isNull', field: 'sessionId' })).toEqual([])
    expect(await matching({ op: 'notNull', field: 'sessionId' })).toEqual([1, 2, 3, 4])
  })

  it('combines with and, or and not; not lets rows with an unset field through', async () => {
    expect(await matching({ op: 'and', filters: [] })).toEqual([1, 2, 3, 4])
    expect(await matching({ op: 'or', filters: [] })).toEqual([])
    expect(
      await matching({
        op: 'or',
        filters: [
          { op: 'eq', field: 'peerId', value: 'bob' },
          { op: 'eq', field: 'tokenCount', value: 1 },
        ],
      }),
    ).toEqual([2, 4])
    const vip: MessageFilter = { op: 'jsonEquals', field: 'metadata', path: ['vip'], value: true }
    expect(await matching({ op: 'not', filter: vip })).toEqual([1, 3, 4])
  })

  it('tests JSON values by type and value, inside arrays and nested objects', async () => {
    type WithoutField<T> = T extends unknown ? Omit<T, 'field'> : never
    const json = (filter: WithoutField<JsonFilter<'metadata'>>) =>
      matching({ ...filter, field: 'metadata' } as MessageFilter)
    expect(await json({ op: 'jsonEquals', path: ['type'], value: 'support' })).toEqual([1])
    expect(await json({ op: 'jsonEquals', path: ['age'], value: 18 })).toEqual([1])
    expect(await json({ op: 'jsonEquals', path: ['age'], value: '18' })).toEqual([])
    expect(await json({ op: 'jsonEquals', path: ['vip'], value: 1 })).toEqual([])
    expect(await json({ op: 'jsonEquals', path: ['note'], value: null })).toEqual([3])
    expect(await json({ op: 'jsonEquals', path: ['nested', 'level'], value: 2 })).toEqual([1])
    expect(await json({ op: 'jsonIs', path: ['tags'], type: 'array' })).toEqual([1])
    expect(await json({ op: 'jsonIs', path: ['nested'], type: 'object' })).toEqual([1])
    expect(await json({ op: 'jsonHas', path: ['tags'], value: 'b' })).toEqual([1])
    expect(await json({ op: 'jsonPresent', path: ['note'] })).toEqual([])
    expect(await json({ op: 'jsonPresent', path: ['vip'] })).toEqual([2])
    expect(await json({ op: 'jsonContainsText', path: ['type'], text: 'SUPPORT' })).toEqual([1, 3])
    expect(await json({ op: 'jsonCompare', path: ['age'], compare: 'gte', value: 18 })).toEqual([1])
    expect(await json({ op: 'jsonCompare', path: ['type'], compare: 'gte', value: 'sales' })).toEqual([1, 2])
  })

  it('keeps messages a peer could observe: its sessions, within its membership window', async () => {
    const { store, ids } = await seed()
    await store.sessions.addPeers('w', 's1', [{ peerId: 'dave' }])
    const found = await store.messages.findByIds('w', ids, { op: 'observableBy', peerId: 'dave' })
    expect(found).toEqual([])
    const [late] = await store.messages.insertBatch('w', 's1', [
      { peerId: 'erin', content: 'after dave joined' },
    ])
    const seen = await store.messages.findByIds('w', [...ids, late!.id], {
      op: 'observableBy',
      peerId: 'dave',
    })
    expect(seen.map((m) => m.content)).toEqual(['after dave joined'])
  })

  it('filters booleans on sessions', async () => {
    const { store } = await seed()
    await store.sessions.setActive('w', 's2', false)
    const inactive: SessionFilter = { op: 'eq', field: 'isActive', value: false }
    const page = await store.sessions.list('w', {}, { filter: inactive, includeInactive: true })
    expect(page.items.map((s) => s.id)).toEqual(['s2'])
  })

  it('refuses unknown fields, wrong value types and unsafe JSON keys with INVALID_INPUT', async () => {
    const { store, ids } = await seed()
    const refuse = (filter: unknown) =>
      expectStoreError(store.messages.findByIds('w', ids, filter as MessageFilter), 'INVALID_INPUT')
    await refuse({ op: 'eq', field: 'content', value: 'x' })
    await refuse({ op: 'eq', field: 'tokenCount', value: 'many' })
    await refuse({ op: 'gte', field: 'createdAt', value: 'yesterday' })
    await refuse({ op: 'containsText', field: 'tokenCount', text: '1' })
    await refuse({ op: 'eq', field: 'metadata', value: 'x' })
    await refuse({ op: 'jsonEquals', field: 'metadata', path: ['a"b'], value: 1 })
    await refuse({ op: 'jsonEquals', field: 'metadata', path: [], value: 1 })
    await refuse({ op: 'jsonEquals', field: 'metadata', path: ['a'], value: { b: 1 } })
    await refuse({ op: 'like', field: 'peerId', value: 'a%' })
    await expectStoreError(
      store.sessions.list('w', {}, { filter: { op: 'observableBy', peerId: 'x' } as SessionFilter }),
      'INVALID_INPUT',
    )
  })
})
