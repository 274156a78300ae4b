import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from './harness'

/**
 * Issue 24, "no 500 from input": filters too wide and JSON too deep are answered 422 naming the limit, on every
 * list route and search, and nothing is stored; filters just under the limits work. The same file runs on
 * PostgreSQL (input-limits.postgres.test.ts).
 */
let t: TestServer
let messageId: string

beforeAll(async () => {
  t = await openTestServer()
  await t.call('POST', '/v3/workspaces', { id: 'w', metadata: { tier: 'gold' } })
  await t.call('POST', '/v3/workspaces/w/peers', { id: 'alice', metadata: { tier: 'gold' } })
  await t.call('POST', '/v3/workspaces/w/peers', { id: 'bob', metadata: { tier: 'lead' } })
  await t.call('POST', '/v3/workspaces/w/sessions', {
    id: 's',
    metadata: { tier: 'gold' },
    peers: { alice: {}, bob: {} },
  })
  const created = await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
    messages: [
      { peer_id: 'alice', content: 'hello from alice about kayaks', metadata: { tier: 'gold' } },
      { peer_id: 'bob', content: 'hello from bob about kayaks', metadata: { tier: 'lead' } },
    ],
  })
  messageId = ((await created.json()) as { id: string }[])[0]!.id
}, 120_000)

afterAll(async () => {
  await t?.close()
})

const range = <T>(n: number, f: (i: number) => T) => Array.from({ length: n }, (_, i) => f(i))

/** `{"k":{"k":…1…}}`, built as text: JSON.stringify itself recurses. */
const nestedText = (levels: number) => `${'{"k":'.repeat(levels)}1${'}'.repeat(levels)}`
const nestedValue = (levels: number): Record<string, unknown> => JSON.parse(nestedText(levels))

/** Every route that takes the filter DSL, with the text field its filters name and the rest of its body. */
const FILTER_ROUTES = [
  { path: '/v3/workspaces/list', field: 'id', body: {} },
  { path: '/v3/workspaces/w/peers/list', field: 'id', body: {} },
  { path: '/v3/workspaces/w/sessions/list', field: 'id', body: {} },
  { path: '/v3/workspaces/w/peers/alice/sessions', field: 'id', body: {} },
  { path: '/v3/workspaces/w/conclusions/list', field: 'id', body: {} },
  { path: '/v3/workspaces/w/conclusions/query', field: 'id', body: { query: 'kayaks' } },
  { path: '/v3/workspaces/w/sessions/s/messages/list', field: 'peer_id', body: {} },
  { path: '/v3/workspaces/w/search', field: 'peer_id', body: { query: 'kayaks' } },
  { path: '/v3/workspaces/w/sessions/s/search', field: 'peer_id', body: { query: 'kayaks' } },
  { path: '/v3/workspaces/w/peers/alice/search', field: 'peer_id', body: { query: 'kayaks' } },
] as const

/** The issue's probes (and two more), each with the detail that must answer it. */
const TOO_WIDE = [
  {
    probe: 'an OR of 1,000 branches',
    filters: (field: string) => ({ OR: range(1000, (i) => ({ [field]: `x${i}` })) }),
    detail: 'OR takes at most 100 filters, got 1000',
  },
  {
    probe: "an 'in' with 40,000 values",
    filters: (field: string) => ({ [field]: { in: range(40_000, (i) => `x${i}`) } }),
    detail: (field: string) => `a list for '${field}' may hold at most 1000 values, got 40000`,
  },
  {
    probe: "a metadata 'in' of 2,000",
    filters: () => ({ metadata: { tier: { in: range(2000, (i) => `v${i}`) } } }),
    detail: "a list for 'metadata.tier' may hold at most 1000 values, got 2000",
  },
  {
    probe: 'a filter object with 101 keys',
    filters: () => ({ metadata: Object.fromEntries(range(101, (i) => [`k${i}`, i])) }),
    detail: 'a metadata filter object may have at most 100 keys, got 101',
  },
  {
    probe: '1,100 conditions in 100 branches',
    filters: (field: string) => ({
      OR: range(100, (i) => ({ AND: range(11, (j) => ({ [field]: { ne: `x${i}-${j}` } })) })),
    }),
    detail: (_field: string, route: string) =>
      `a ${resourceOf(route)} filter may hold at most 1000 conditions`,
  },
] as const

function resourceOf(path: string): string {
  if (path.includes('/conclusions/')) return 'conclusions'
  if (path.endsWith('/messages/list') || path.endsWith('/search')) return 'messages'
  if (path.endsWith('/peers/list')) return 'peers'
  return path === '/v3/workspaces/list' ? 'workspaces' : 'sessions'
}

async function post(path: string, body: unknown): Promise<{ status: number; json: unknown }> {
  const res = await t.call('POST', path, body)
  return { status: res.status, json: await res.json() }
}

describe('filters past a limit answer 422 naming it, on every list route and search', () => {
  for (const route of FILTER_ROUTES) {
    for (const wide of TOO_WIDE) {
      it(`${route.path}: ${wide.probe}`, async () => {
        const { status, json } = await post(route.path, { ...route.body, filters: wide.filters(route.field) })
        const detail = typeof wide.detail === 'string' ? wide.detail : wide.detail(route.field, route.path)
        expect({ status, json }).toEqual({ status: 422, json: { detail } })
      })
    }
  }

  it('refuses a filter nested 20,000 levels deep before reading it', async () => {
    const res = await t.call('POST', '/v3/workspaces/w/peers/list', `{"filters":${nestedText(20_000)}}`)
    expect(res.status).toBe(422)
    expect(await res.json()).toEqual({
      detail: [
        {
          type: 'value_error',
          loc: ['body', 'filters'],
          msg: 'JSON may be nested at most 32 levels deep',
          input: null,
        },
      ],
    })
  })
})

describe('filters of any width and depth answer 200 within the caps and 422 past them, never 500', () => {
  /**
   * `extra` AND wrappers around an OR of `width` ANDs of `conditions` always-true tests, beside an `in` of
   * `values` ids that holds both authors: every message matches whenever the filter is allowed.
   */
  const shape = fc.record({
    width: fc.integer({ min: 1, max: 150 }),
    conditions: fc.integer({ min: 1, max: 15 }),
    extra: fc.integer({ min: 0, max: 4 }),
    values: fc.integer({ min: 0, max: 1200 }),
  })

  it('on the messages list', async () => {
    await fc.assert(
      fc.asyncProperty(shape, async ({ width, conditions, extra, values }) => {
        let filters: Record<string, unknown> = {
          OR: range(width, (i) => ({ AND: range(conditions, (j) => ({ peer_id: { ne: `x${i}-${j}` } })) })),
          peer_id: { in: [...range(values, (i) => `x${i}`), 'alice', 'bob'] },
        }
        for (let level = 0; level < extra; level++) filters = { AND: [filters] }
        const allowed = width <= 100 && 3 + extra <= 5 && values + 2 <= 1000
        const withinConditions = width * conditions + 1 <= 1000
        const { status, json } = await post('/v3/workspaces/w/sessions/s/messages/list', { filters })
        if (allowed && withinConditions) {
          expect(status).toBe(200)
          expect((json as { items: { peer_id: string }[] }).items.map((m) => m.peer_id)).toEqual([
            'alice',
            'bob',
          ])
        } else {
          expect(status).toBe(422)
          expect((json as { detail: string }).detail).toMatch(/at most \d+/)
        }
      }),
      { numRuns: 30 },
    )
  })
})

describe('filters just under the limits work', () => {
  /** 100 branches of 10 conditions each: 1,000 conditions, one branch matching `target`. */
  const atTheLimits = (field: string, target: string) => ({
    OR: range(100, (i) => ({
      AND: [
        { [field]: i === 57 ? target : `x${i}` },
        ...range(9, (j) => ({ [field]: { ne: `y${i}-${j}` } })),
      ],
    })),
  })

  it('lists with 1,000 conditions in 100 branches, a 1,000-value in and a 1,000-value metadata in', async () => {
    const ids = async (path: string, filters: unknown) => {
      const { status, json } = await post(path, { filters })
      expect(status).toBe(200)
      return (json as { items: { id: string; peer_id?: string }[] }).items.map(
        (item) => item.peer_id ?? item.id,
      )
    }
    const peers = '/v3/workspaces/w/peers/list'
    expect(await ids(peers, atTheLimits('id', 'bob'))).toEqual(['bob'])
    expect(await ids(peers, { id: { in: [...range(999, (i) => `x${i}`), 'alice'] } })).toEqual(['alice'])
    const tiers = { metadata: { tier: { in: [...range(999, (i) => `v${i}`), 'lead'] } } }
    expect(await ids(peers, tiers)).toEqual(['bob'])
    const messages = '/v3/workspaces/w/sessions/s/messages/list'
    expect(await ids(messages, atTheLimits('peer_id', 'alice'))).toEqual(['alice'])
    expect(await ids(messages, tiers)).toEqual(['bob'])
    expect(await ids('/v3/workspaces/list', { id: { in: [...range(999, (i) => `x${i}`), 'w'] } })).toEqual([
      'w',
    ])
  })

  it('searches with 1,000 conditions in 100 branches', async () => {
    const { status, json } = await post('/v3/workspaces/w/search', {
      query: 'kayaks',
      filters: atTheLimits('peer_id', 'bob'),
    })
    expect(status).toBe(200)
    expect((json as { peer_id: string }[]).map((m) => m.peer_id)).toEqual(['bob'])
  })
})

describe('metadata and configuration follow the same depth and size rules', () => {
  async function snapshot() {
    const workspaces = await post('/v3/workspaces/list', {})
    const peers = await post('/v3/workspaces/w/peers/list', {})
    const sessions = await post('/v3/workspaces/w/sessions/list', {})
    const message = await t.call('GET', `/v3/workspaces/w/sessions/s/messages/${messageId}`)
    return { workspaces, peers, sessions, message: await message.json() }
  }

  /** Each write route with a body holding `value` as its metadata or configuration. */
  const WRITES = [
    { method: 'POST', path: '/v3/workspaces', field: 'configuration', id: 'w2' },
    { method: 'POST', path: '/v3/workspaces', field: 'metadata', id: 'w3' },
    { method: 'PUT', path: '/v3/workspaces/w', field: 'configuration' },
    { method: 'PUT', path: '/v3/workspaces/w', field: 'metadata' },
    { method: 'POST', path: '/v3/workspaces/w/sessions', field: 'configuration', id: 's2' },
    { method: 'PUT', path: '/v3/workspaces/w/sessions/s', field: 'configuration' },
    { method: 'POST', path: '/v3/workspaces/w/peers', field: 'metadata', id: 'carol' },
    { method: 'PUT', path: '/v3/workspaces/w/sessions/s/messages/:m', field: 'metadata' },
  ] as const

  const bodyText = (write: (typeof WRITES)[number], valueText: string) =>
    `{${'id' in write ? `"id":"${write.id}",` : ''}"${write.field}":${valueText}}`

  it('refuses 20,000 and 2,000 levels, then 6 levels and 101 keys, and stores nothing', async () => {
    const before = await snapshot()
    for (const write of WRITES) {
      const path = write.path.replace(':m', messageId)
      for (const levels of [20_000, 2000]) {
        const res = await t.call(write.method, path, bodyText(write, nestedText(levels)))
        expect(res.status).toBe(422)
        expect(((await res.json()) as { detail: { loc: string[]; msg: string }[] }).detail).toEqual([
          expect.objectContaining({
            loc: ['body', write.field],
            msg: 'JSON may be nested at most 32 levels deep',
          }),
        ])
      }
      const deep = await t.call(write.method, path, bodyText(write, nestedText(6)))
      expect(deep.status).toBe(422)
      expect((await deep.json()) as unknown).toMatchObject({
        detail: [{ loc: ['body', write.field], msg: `${write.field} may be nested at most 5 levels deep` }],
      })
      const wide = JSON.stringify(Object.fromEntries(range(101, (i) => [`k${i}`, i])))
      const keys = await t.call(write.method, path, bodyText(write, wide))
      expect(keys.status).toBe(422)
      expect((await keys.json()) as unknown).toMatchObject({
        detail: [{ loc: ['body', write.field], msg: `${write.field} may have at most 100 keys` }],
      })
    }
    expect(await snapshot()).toEqual(before)
  })

  it('refuses an uploaded file whose metadata field nests 20,000 levels', async () => {
    const form = new FormData()
    form.set('file', new Blob(['an uploaded note'], { type: 'text/plain' }), 'note.txt')
    form.set('peer_id', 'alice')
    form.set('metadata', nestedText(20_000))
    const before = await snapshot()
    const res = await t.app.request('/v3/workspaces/w/sessions/s/messages/upload', {
      method: 'POST',
      body: form,
    })
    expect(res.status).toBe(422)
    expect(await res.json()).toMatchObject({
      detail: [{ loc: ['body', 'metadata', 'k'], msg: 'JSON may be nested at most 32 levels deep' }],
    })
    expect(await snapshot()).toEqual(before)
  })

  it('keeps configuration 5 levels deep, as metadata', async () => {
    const value = nestedValue(5)
    const res = await t.call('POST', '/v3/workspaces', { id: 'deep5', configuration: value, metadata: value })
    expect(res.status).toBe(201)
    expect(await res.json()).toMatchObject({ configuration: value, metadata: value })
  })
})
