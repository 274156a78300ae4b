import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { type MessageFilter, openStore, type Store } from '@hymem/core-store'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { HonchoHttpError } from '../errors'
import { compileFilter, isoDate } from './compile'
import { MESSAGE_FILTERS, SESSION_FILTERS } from './resources'
import type { FilterResource } from './types'

let dir: string
let store: Store
const messageIds: number[] = []

const ROWS = [
  {
    id: 'm1',
    session: 's1',
    peer: 'alice',
    tokens: 3,
    at: '2024-01-01T10:00:00.000Z',
    meta: { type: 'support', age: 18, tags: ['a', 'b'], nested: { level: 2, deep: { x: 'y' } } },
  },
  {
    id: 'm2',
    session: 's1',
    peer: 'bob',
    tokens: 10,
    at: '2024-01-02T10:00:00.000Z',
    meta: { type: 'sales', age: 30, vip: true },
  },
  {
    id: 'm3',
    session: 's2',
    peer: 'alice',
    tokens: 7,
    at: '2024-02-01T00:00:00.000Z',
    meta: { type: 'Support Desk', note: null },
  },
  { id: 'm4', session: 's2', peer: 'carol', tokens: 1, at: '2024-03-01T00:00:00.000Z', meta: {} },
]

beforeAll(async () => {
  dir = mkdtempSync(join(tmpdir(), 'hymem-filters-'))
  let next = 0
  store = openStore({
    path: join(dir, 'f.sqlite'),
    loadVectorExtension: false,
    newId: () => ROWS[next++]?.id ?? `extra-${next}`,
  })
  for (const row of ROWS) {
    const [message] = await store.messages.insertBatch('w', row.session, [
      {
        peerId: row.peer,
        role: 'user',
        content: `hello from ${row.peer}`,
        metadata: row.meta,
        tokenCount: row.tokens,
        createdAt: row.at,
      },
    ])
    messageIds.push(message!.id)
  }
  await store.sessions.setActive('w', 's2', false)
})

afterAll(async () => {
  await store.close()
  rmSync(dir, { recursive: true, force: true })
})

async function ids(filters: unknown, resource: FilterResource<string> = MESSAGE_FILTERS): Promise<string[]> {
  const filter = compileFilter(resource, filters) as MessageFilter | null
  const found = await store.messages.findByIds('w', messageIds, filter ?? undefined)
  return found.map((m) => m.publicId)
}

function rejects(
  filters: unknown,
  pattern: RegExp,
  resource: FilterResource<string> = MESSAGE_FILTERS,
): void {
  let error: unknown
  try {
    compileFilter(resource, filters)
  } catch (caught) {
    error = caught
  }
  expect(error).toBeInstanceOf(HonchoHttpError)
  expect((error as HonchoHttpError).code).toBe('VALIDATION')
  expect((error as HonchoHttpError).message).toMatch(pattern)
}

describe('compileFilter: columns and operators', () => {
  it('imposes nothing for null, undefined, {} and wildcards', async () => {
    expect(compileFilter(MESSAGE_FILTERS, null)).toBeNull()
    expect(compileFilter(MESSAGE_FILTERS, undefined)).toBeNull()
    expect(compileFilter(MESSAGE_FILTERS, {})).toBeNull()
    expect(await ids({ peer_id: '*', metadata: { type: '*' } })).toEqual(['m1', 'm2', 'm3', 'm4'])
  })

  it('compares equality, bare lists and in', async () => {
    expect(await ids({ peer_id: 'alice' })).toEqual(['m1', 'm3'])
    expect(await ids({ peer_id: ['bob', 'carol'] })).toEqual(['m2', 'm4'])
    expect(await ids({ peer_id: { in: ['carol'] } })).toEqual(['m4'])
    expect(await ids({ peer_id: { in: [] } })).toEqual([])
    expect(await ids({ session_id: 's1', peer_id: 'bob' })).toEqual(['m2'])
  })

  it('applies range operators on numbers and dates, ANDing several', async () => {
    expect(await ids({ token_count: { gte: 3, lt: 10 } })).toEqual(['m1', 'm3'])
    expect(await ids({ token_count: { gt: 7 } })).toEqual(['m2'])
    expect(await ids({ token_count: { lte: 1 } })).toEqual(['m4'])
    expect(await ids({ token_count: { ne: 3 } })).toEqual(['m2', 'm3', 'm4'])
    expect(await ids({ created_at: { gte: '2024-01-02' } })).toEqual(['m2', 'm3', 'm4'])
    expect(await ids({ created_at: { lt: '2024-02-01T00:00:00Z' } })).toEqual(['m1', 'm2'])
    expect(
      await ids({ created_at: { gte: '2024-01-01T12:00:00', lte: '2024-02-01T00:00:00+00:00' } }),
    ).toEqual(['m2', 'm3'])
  })

  it('matches contains and icontains case-insensitively on text', async () => {
    expect(await ids({ peer_id: { contains: 'LI' } })).toEqual(['m1', 'm3'])
    expect(await ids({ peer_id: { icontains: 'CAR' } })).toEqual(['m4'])
  })

  it('supports null as IS NULL and ne:null as IS NOT NULL', async () => {
    const nullable: FilterResource<'sessionId'> = {
      name: 't',
      fields: { session_id: { field: 'sessionId', kind: 'text' } },
    }
    expect(await ids({ session_id: null }, nullable)).toEqual([])
    expect(await ids({ session_id: { ne: null } }, nullable)).toEqual(['m1', 'm2', 'm3', 'm4'])
  })

  it('combines AND, OR and NOT, with NOT including rows whose field is unset', async () => {
    expect(await ids({ OR: [{ peer_id: 'bob' }, { token_count: 1 }] })).toEqual(['m2', 'm4'])
    expect(await ids({ AND: [{ peer_id: 'alice' }, { session_id: 's2' }] })).toEqual(['m3'])
    expect(await ids({ NOT: [{ peer_id: 'alice' }] })).toEqual(['m2', 'm4'])
    expect(await ids({ NOT: [{ metadata: { vip: true } }] })).toEqual(['m1', 'm3', 'm4'])
    expect(await ids({ session_id: 's1', OR: [{ peer_id: 'alice' }, { peer_id: 'carol' }] })).toEqual(['m1'])
    expect(await ids({ OR: [] })).toEqual(['m1', 'm2', 'm3', 'm4'])
  })
})

describe('compileFilter: metadata', () => {
  it('matches containment of scalars, booleans, arrays and nested objects', async () => {
    expect(await ids({ metadata: { type: 'support' } })).toEqual(['m1'])
    expect(await ids({ metadata: { vip: true } })).toEqual(['m2'])
    expect(await ids({ metadata: { age: 18 } })).toEqual(['m1'])
    expect(await ids({ metadata: { tags: ['b'] } })).toEqual(['m1'])
    expect(await ids({ metadata: { tags: ['b', 'z'] } })).toEqual([])
    expect(await ids({ metadata: { nested: { level: 2 } } })).toEqual(['m1'])
    expect(await ids({ metadata: { nested: { deep: { x: 'y' } } } })).toEqual(['m1'])
    expect(await ids({ metadata: { note: null } })).toEqual(['m3'])
    expect(await ids({ metadata: { missing: 'x' } })).toEqual([])
  })

  it('does not confuse the string "1" with the number 1 or true', async () => {
    expect(await ids({ metadata: { age: '18' } })).toEqual([])
    expect(await ids({ metadata: { vip: 1 } })).toEqual([])
  })

  it('applies per-key operators with a numeric cast for numeric operands', async () => {
    expect(await ids({ metadata: { age: { gte: 18 } } })).toEqual(['m1', 'm2'])
    expect(await ids({ metadata: { age: { gt: 18, lte: 30 } } })).toEqual(['m2'])
    expect(await ids({ metadata: { type: { in: ['sales', 'support'] } } })).toEqual(['m1', 'm2'])
    expect(await ids({ metadata: { type: { icontains: 'SUPPORT' } } })).toEqual(['m1', 'm3'])
    expect(await ids({ metadata: { tags: { contains: 'a' } } })).toEqual(['m1'])
    expect(await ids({ metadata: { type: { ne: 'sales' } } })).toEqual(['m1', 'm3', 'm4'])
    expect(await ids({ metadata: { note: { ne: null } } })).toEqual([])
    expect(await ids({ metadata: { type: { gte: 'sales' } } })).toEqual(['m1', 'm2'])
  })

  it('matches a metadata in by JSON type and value, numbers, strings, booleans and null alike', async () => {
    expect(await ids({ metadata: { age: { in: [18, '30'] } } })).toEqual(['m1'])
    expect(await ids({ metadata: { vip: { in: [true, 'x'] } } })).toEqual(['m2'])
    expect(await ids({ metadata: { note: { in: [null] } } })).toEqual(['m3'])
    expect(await ids({ metadata: { type: { in: [] } } })).toEqual([])
    expect(await ids({ NOT: [{ metadata: { age: { in: [18, 30] } } }] })).toEqual(['m3', 'm4'])
  })
})

describe('compileFilter: rejections are 422, never SQL errors', () => {
  it('rejects unknown columns, including id on messages', () => {
    rejects({ content: 'x' }, /Column 'content' is not allowed for filtering messages/)
    rejects({ id: 'x' }, /Column 'id' is not allowed/)
    rejects({ 'peer_id; DROP TABLE messages': 'x' }, /not allowed/)
  })

  it('rejects unknown operators and null operands', () => {
    rejects({ peer_id: { like: 'a%' } }, /Unsupported operator 'like'/)
    rejects({ token_count: { gte: null } }, /does not accept null/)
    rejects({ metadata: { age: { gte: null } } }, /does not accept null/)
  })

  it('rejects type mismatches', () => {
    rejects({ token_count: 'many' }, /takes a number/)
    rejects({ token_count: { in: [1, 'two'] } }, /takes a number/)
    rejects({ peer_id: 5 }, /takes a string/)
    rejects({ created_at: 'yesterday' }, /ISO-8601/)
    rejects({ created_at: '2024-13-45' }, /ISO-8601/)
    rejects({ is_active: 'yes' }, /takes a boolean/, SESSION_FILTERS)
    rejects({ token_count: { contains: '1' } }, /needs a text column/)
    rejects({ metadata: 'support' }, /takes an object/)
    rejects({ metadata: { age: { gte: true } } }, /number or string/)
    rejects({ metadata: { 'a"b': 1 } }, /cannot be filtered on/)
    rejects('peer_id=alice', /must be an object/)
    rejects({ AND: 'x' }, /list of filters/)
    rejects({ OR: [1] }, /filter objects/)
  })

  it('limits nesting depth to 5', async () => {
    const nest = (levels: number): Record<string, unknown> =>
      levels === 0 ? { peer_id: 'alice' } : { AND: [nest(levels - 1)] }
    expect(await ids(nest(4))).toEqual(['m1', 'm3'])
    rejects(nest(5), /nested at most 5/)
    rejects({ metadata: { a: { b: { c: { d: { e: { f: 1 } } } } } } }, /nested at most 5/)
  })

  it('limits width: 100 branches or keys, 1,000 values per list, 1,000 conditions in all', async () => {
    const range = (n: number) => Array.from({ length: n }, (_, i) => i)
    const names = (n: number) => range(n).map((i) => `p${i}`)
    expect(await ids({ OR: [...names(99).map((p) => ({ peer_id: p })), { peer_id: 'carol' }] })).toEqual([
      'm4',
    ])
    expect(await ids({ peer_id: { in: [...names(999), 'bob'] } })).toEqual(['m2'])
    expect(await ids({ metadata: { type: { in: [...names(999), 'sales'] } } })).toEqual(['m2'])
    rejects({ OR: names(101).map((p) => ({ peer_id: p })) }, /^OR takes at most 100 filters, got 101$/)
    rejects({ NOT: names(101).map((p) => ({ peer_id: p })) }, /^NOT takes at most 100 filters/)
    rejects({ peer_id: { in: names(1001) } }, /^a list for 'peer_id' may hold at most 1000 values, got 1001$/)
    rejects({ peer_id: names(1001) }, /at most 1000 values/)
    rejects({ metadata: { type: { in: names(1001) } } }, /^a list for 'metadata.type' may hold at most 1000/)
    rejects({ metadata: { tags: names(1001) } }, /^a list for 'metadata.tags' may hold at most 1000 values/)
    const keys = Object.fromEntries(names(101).map((p) => [p, 1]))
    rejects({ metadata: keys }, /^a metadata filter object may have at most 100 keys, got 101$/)
    const conditions = {
      OR: range(100).map((i) => ({ AND: names(11).map((p) => ({ peer_id: { ne: `${p}${i}` } })) })),
    }
    expect(() => compileFilter(MESSAGE_FILTERS, conditions)).toThrow(
      expect.objectContaining({
        code: 'INVALID_INPUT',
        message: 'a messages filter may hold at most 1000 conditions',
      }),
    )
  })

  it('filters booleans on sessions', async () => {
    const filter = compileFilter(SESSION_FILTERS, { is_active: false })!
    const page = await store.sessions.list('w', {}, { filter, includeInactive: true })
    expect(page.items.map((s) => s.id)).toEqual(['s2'])
  })
})

describe('isoDate', () => {
  it('treats naive and date-only values as UTC', () => {
    expect(isoDate('d', '2024-01-01')).toBe('2024-01-01T00:00:00.000Z')
    expect(isoDate('d', '2024-01-01T12:30:00')).toBe('2024-01-01T12:30:00.000Z')
    expect(isoDate('d', '2024-01-01T12:30:00+02:00')).toBe('2024-01-01T10:30:00.000Z')
  })
})
