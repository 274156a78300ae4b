import fc from 'fast-check'
import { describe, expect, it } from 'vitest'
import { type BackendUnderTest, sqliteBackend } from '../../test/backends'
import { postgresBackends } from '../../test/postgres-backends'
import { expectStoreError } from '../../test/store-harness'
import type { Store } from '../store/types'
import { FILTER_LIMITS } from './limits'
import type { JsonScalar, MessageFilter } from './types'

/** Messages whose metadata holds every JSON type at `v`, and nothing at all for some. */
const ROWS: { peer: string; tokens: number; meta: Record<string, JsonScalar> }[] = [
  { peer: 'alice', tokens: 1, meta: { v: 'red' } },
  { peer: 'bob', tokens: 2, meta: { v: 2 } },
  { peer: 'carol', tokens: 3, meta: { v: 2.5 } },
  { peer: 'alice', tokens: 4, meta: { v: true } },
  { peer: 'bob', tokens: 5, meta: { v: false } },
  { peer: 'dave', tokens: 6, meta: { v: null } },
  { peer: 'erin', tokens: 7, meta: {} },
  { peer: 'carol', tokens: 8, meta: { v: '2' } },
]
const PEERS = ['alice', 'bob', 'carol', 'dave', 'erin', 'nobody']
const VALUES: JsonScalar[] = ['red', 'blue', '2', 2, 2.5, 3, true, false, null]

type Row = (typeof ROWS)[number]
type Truth = boolean | null

/** What SQL makes of a filter on one row: unknown (null) where a JSON value is missing, as documented on `Filter`. */
function evaluate(filter: MessageFilter, row: Row): Truth {
  switch (filter.op) {
    case 'and': {
      const parts = filter.filters.map((part) => evaluate(part, row))
      return parts.includes(false) ? false : parts.includes(null) ? null : true
    }
    case 'or': {
      const parts = filter.filters.map((part) => evaluate(part, row))
      return parts.includes(true) ? true : parts.includes(null) ? null : false
    }
    case 'not':
      return evaluate(filter.filter, row) !== true
    case 'eq':
      return filter.field === 'peerId' ? row.peer === filter.value : row.tokens === filter.value
    case 'in':
      return filter.values.includes(filter.field === 'peerId' ? row.peer : row.tokens)
    case 'jsonEquals':
      return 'v' in row.meta ? row.meta.v === filter.value : null
    case 'jsonIn':
      return 'v' in row.meta ? filter.values.includes(row.meta.v!) : null
    default:
      throw new Error(`the reference evaluator has no case for ${filter.op}`)
  }
}

const leaf: fc.Arbitrary<MessageFilter> = fc.oneof(
  fc.constantFrom(...PEERS).map((value): MessageFilter => ({ op: 'eq', field: 'peerId', value })),
  fc.integer({ min: 0, max: 9 }).map((value): MessageFilter => ({ op: 'eq', field: 'tokenCount', value })),
  fc
    .array(fc.constantFrom(...PEERS), { maxLength: 8 })
    .map((values): MessageFilter => ({ op: 'in', field: 'peerId', values })),
  fc
    .array(fc.integer({ min: 0, max: 9 }), { maxLength: 8 })
    .map((values): MessageFilter => ({ op: 'in', field: 'tokenCount', values })),
  fc
    .constantFrom(...VALUES)
    .map((value): MessageFilter => ({ op: 'jsonEquals', field: 'metadata', path: ['v'], value })),
  fc
    .array(fc.constantFrom(...VALUES), { maxLength: 9 })
    .map((values): MessageFilter => ({ op: 'jsonIn', field: 'metadata', path: ['v'], values })),
)

const { tree } = fc.letrec<{ tree: MessageFilter }>((tie) => ({
  tree: fc.oneof(
    { depthSize: 'small', maxDepth: 5, withCrossShrink: true },
    leaf,
    fc.array(tie('tree'), { maxLength: 6 }).map((filters): MessageFilter => ({ op: 'and', filters })),
    fc.array(tie('tree'), { maxLength: 6 }).map((filters): MessageFilter => ({ op: 'or', filters })),
    tie('tree').map((filter): MessageFilter => ({ op: 'not', filter })),
  ),
}))

/** One `and` or `or` of up to the whole condition budget, so width is what varies. */
const wide = fc
  .tuple(fc.constantFrom('and' as const, 'or' as const), fc.array(leaf, { minLength: 1, maxLength: 1000 }))
  .map(([op, filters]): MessageFilter => ({ op, filters }))

function countConditions(filter: MessageFilter): number {
  if (filter.op === 'and' || filter.op === 'or')
    return filter.filters.reduce((n, f) => n + countConditions(f), 0)
  return filter.op === 'not' ? countConditions(filter.filter) : 1
}

function nested(levels: number, inner: MessageFilter): MessageFilter {
  let filter = inner
  for (let i = 0; i < levels; i++) filter = { op: 'and', filters: [filter] }
  return filter
}

const range = (n: number) => Array.from({ length: n }, (_, i) => i)

function describeFilterSize(backend: BackendUnderTest) {
  describe(`filter width and depth: ${backend.label}`, () => {
    const stores = backend.use()

    async function seeded(): Promise<{
      store: Store
      ids: number[]
      matching(f: MessageFilter): Promise<number[]>
    }> {
      const store = await stores.open()
      const ids: number[] = []
      for (const row of ROWS) {
        const [message] = await store.messages.insertBatch('w', 's', [
          { peerId: row.peer, content: `from ${row.peer}`, metadata: row.meta, tokenCount: row.tokens },
        ])
        ids.push(message!.id)
      }
      const matching = async (filter: MessageFilter) =>
        (await store.messages.findByIds('w', ids, filter)).map((m) => ids.indexOf(m.id))
      return { store, ids, matching }
    }

    const expected = (filter: MessageFilter) =>
      range(ROWS.length).filter((i) => evaluate(filter, ROWS[i]!) === true)

    it('matches the reference evaluation on random trees', async () => {
      const { matching } = await seeded()
      await fc.assert(
        fc.asyncProperty(tree, async (filter) => {
          fc.pre(countConditions(filter) <= FILTER_LIMITS.conditions)
          expect(await matching(filter)).toEqual(expected(filter))
        }),
        { numRuns: 40 },
      )
    })

    it('matches the reference evaluation on and/or of any width up to the condition limit', async () => {
      const { matching } = await seeded()
      await fc.assert(
        fc.asyncProperty(wide, async (filter) => {
          expect(await matching(filter)).toEqual(expected(filter))
        }),
        { numRuns: 8 },
      )
    })

    it('runs a filter just under every limit', async () => {
      const { matching } = await seeded()
      const misses = range(FILTER_LIMITS.conditions - 1).map(
        (i): MessageFilter => ({ op: 'eq', field: 'peerId', value: `x${i}` }),
      )
      const or: MessageFilter = {
        op: 'or',
        filters: [...misses, { op: 'eq', field: 'peerId', value: 'bob' }],
      }
      expect(await matching(or)).toEqual([1, 4])
      const and: MessageFilter = {
        op: 'and',
        filters: [
          { op: 'eq', field: 'tokenCount', value: 3 },
          ...misses.map((f) => ({ op: 'not' as const, filter: f })),
        ],
      }
      expect(await matching(and)).toEqual([2])
      const deep = nested(FILTER_LIMITS.depth, { op: 'eq', field: 'peerId', value: 'erin' })
      expect(await matching(deep)).toEqual([6])
    })

    it('binds a list of any length as one parameter', async () => {
      const { matching } = await seeded()
      const peers = [...range(40_000).map((i) => `x${i}`), 'dave']
      expect(await matching({ op: 'in', field: 'peerId', values: peers })).toEqual([5])
      const tokens = [...range(40_000).map((i) => i + 100), 2, 3.5]
      expect(await matching({ op: 'in', field: 'tokenCount', values: tokens })).toEqual([1])
      const values: JsonScalar[] = [...range(40_000).map((i) => `v${i}`), 2, false, '2']
      expect(await matching({ op: 'jsonIn', field: 'metadata', path: ['v'], values })).toEqual([1, 4, 7])
      expect(await matching({ op: 'jsonIn', field: 'metadata', path: ['v'], values: [null, 2.5] })).toEqual([
        2, 5,
      ])
      expect(
        await matching({ op: 'not', filter: { op: 'jsonIn', field: 'metadata', path: ['v'], values: [] } }),
      ).toEqual(range(ROWS.length))
    })

    it('refuses a filter past a limit with INVALID_INPUT naming it, however wide or deep', async () => {
      const { store, ids } = await seeded()
      const refused = async (filter: MessageFilter) =>
        (await expectStoreError(store.messages.findByIds('w', ids, filter), 'INVALID_INPUT')).message
      const leaves = range(FILTER_LIMITS.conditions + 1).map(
        (i): MessageFilter => ({ op: 'eq', field: 'tokenCount', value: i }),
      )
      expect(await refused({ op: 'or', filters: leaves })).toBe(
        'a messages filter may hold at most 1000 conditions',
      )
      const one: MessageFilter = { op: 'eq', field: 'peerId', value: 'bob' }
      for (const levels of [FILTER_LIMITS.depth + 1, 200_000]) {
        expect(await refused(nested(levels, one))).toBe(
          'a messages filter may nest and/or/not at most 64 levels deep',
        )
      }
    })
  })
}

describeFilterSize(sqliteBackend({ loadVectorExtension: false }))
for (const backend of postgresBackends()) describeFilterSize(backend)
