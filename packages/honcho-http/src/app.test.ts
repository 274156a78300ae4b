import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../test/harness'

let t: TestServer
beforeEach(async () => {
  t = await openTestServer()
})
afterEach(async () => {
  await t.close()
})

describe('workspaces, peers, sessions', () => {
  it('gets-or-creates a workspace with 201 then 200, unchanged', async () => {
    const first = await t.call('POST', '/v3/workspaces', { id: 'w1', metadata: { a: 1 } })
    expect(first.status).toBe(201)
    const created = await first.json()
    expect(created).toEqual({
      id: 'w1',
      metadata: { a: 1 },
      configuration: {},
      created_at: expect.any(String),
    })
    const second = await t.call('POST', '/v3/workspaces', { id: 'w1', metadata: { b: 2 } })
    expect(second.status).toBe(200)
    expect(await second.json()).toEqual(created)
  })

  it('answers 422 with a FastAPI list for a bad id', async () => {
    const res = await t.call('POST', '/v3/workspaces', { id: 'bad id!' })
    expect(res.status).toBe(422)
    const body = (await res.json()) as { detail: { type: string; loc: unknown[]; msg: string }[] }
    expect(body.detail[0]).toMatchObject({ type: 'string_pattern_mismatch', loc: ['body', 'id'] })
  })

  it('answers 422 "Field required" for a missing id and for malformed JSON', async () => {
    const missing = await t.call('POST', '/v3/workspaces', {})
    expect(missing.status).toBe(422)
    expect(await missing.json()).toEqual({
      detail: [{ type: 'missing', loc: ['body', 'id'], msg: 'Field required', input: {} }],
    })
    const malformed = await t.call('POST', '/v3/workspaces', '{"id": ')
    expect(malformed.status).toBe(422)
    expect(((await malformed.json()) as { detail: { type: string }[] }).detail[0]?.type).toBe('json_invalid')
  })

  it('creates peers and sessions and lists them with pagination', async () => {
    for (const id of ['alice', 'bob', 'carol']) {
      expect((await t.call('POST', '/v3/workspaces/w/peers', { id })).status).toBe(201)
    }
    const page = await t.call('POST', '/v3/workspaces/w/peers/list?page=2&size=2')
    expect(await page.json()).toMatchObject({
      items: [{ id: 'carol', workspace_id: 'w' }],
      total: 3,
      page: 2,
      size: 2,
      pages: 2,
    })
    const reversed = await t.call('POST', '/v3/workspaces/w/peers/list?reverse=true', {
      filters: { id: { ne: 'bob' } },
    })
    expect(((await reversed.json()) as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([
      'carol',
      'alice',
    ])

    const session = await t.call('POST', '/v3/workspaces/w/sessions', {
      id: 's1',
      metadata: { topic: 'x' },
      peers: { alice: {}, bob: { observe_others: true } },
    })
    expect(session.status).toBe(201)
    expect(await session.json()).toEqual({
      id: 's1',
      workspace_id: 'w',
      is_active: true,
      metadata: { topic: 'x' },
      configuration: {},
      created_at: expect.any(String),
    })
    const members = await t.call('GET', '/v3/workspaces/w/sessions/s1/peers')
    expect(((await members.json()) as { items: { id: string }[] }).items.map((p) => p.id)).toEqual([
      'alice',
      'bob',
    ])
    const config = await t.call('GET', '/v3/workspaces/w/sessions/s1/peers/bob/config')
    expect(await config.json()).toEqual({ observe_me: null, observe_others: true })
  })

  it('infers peer roles from their ids (user-like vs assistant-like)', async () => {
    await t.call('POST', '/v3/workspaces/w/peers', { id: 'hermes' })
    await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
      messages: [
        { peer_id: 'telegram-42', content: 'hi' },
        { peer_id: 'support-bot', content: 'hello' },
      ],
    })
    const roles = await Promise.all(
      ['hermes', 'telegram-42', 'support-bot'].map((id) => t.memory.peers.get('w', id)),
    )
    expect(roles.map((p) => p?.role)).toEqual(['assistant', 'user', 'assistant'])
    const messages = await t.memory.messages.listBySession('w', 's')
    expect(messages.items.map((m) => m.role)).toEqual(['user', 'assistant'])
  })

  it('answers 404 with a detail string for an unknown session', async () => {
    const res = await t.call('GET', '/v3/workspaces/w1/sessions/nope/context')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ detail: 'Session nope not found' })
  })
})

describe('messages', () => {
  it('adds a batch in one call, returns 201 in input order with o200k token counts', async () => {
    const res = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
      messages: [
        { peer_id: 'user-1', content: 'hello world' },
        { peer_id: 'hermes', content: 'hi there', metadata: { k: 'v' }, created_at: '2024-01-01T00:00:00Z' },
      ],
    })
    expect(res.status).toBe(201)
    const body = (await res.json()) as Record<string, unknown>[]
    expect(body).toHaveLength(2)
    expect(body[0]).toEqual({
      id: expect.stringMatching(/^[A-Za-z0-9_-]{21}$/),
      content: 'hello world',
      peer_id: 'user-1',
      session_id: 's1',
      workspace_id: 'w',
      metadata: {},
      created_at: expect.any(String),
      token_count: 2,
    })
    expect(body[1]).toMatchObject({ created_at: '2024-01-01T00:00:00.000Z', metadata: { k: 'v' } })
    const list = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages/list?reverse=true')
    expect(((await list.json()) as { items: { content: string }[] }).items.map((m) => m.content)).toEqual([
      'hi there',
      'hello world',
    ])
  })

  it('counts special-token text such as <|endoftext|> as ordinary text', async () => {
    const res = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
      messages: [{ peer_id: 'alice', content: 'end <|endoftext|> here' }],
    })
    expect(res.status).toBe(201)
    const [message] = (await res.json()) as { token_count: number }[]
    expect(message?.token_count).toBeGreaterThan(3)
  })

  it('accepts the trailing-slash variant', async () => {
    const res = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages/', {
      messages: [{ peer_id: 'alice', content: 'x' }],
    })
    expect(res.status).toBe(201)
  })

  it('rejects oversized content and batches with 422 and writes nothing', async () => {
    const big = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
      messages: [
        { peer_id: 'alice', content: 'fine' },
        { peer_id: 'alice', content: 'x'.repeat(25_001) },
      ],
    })
    expect(big.status).toBe(422)
    expect(((await big.json()) as { detail: { loc: unknown[] }[] }).detail[0]?.loc).toEqual([
      'body',
      'messages',
      1,
      'content',
    ])
    const many = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
      messages: Array.from({ length: 101 }, () => ({ peer_id: 'alice', content: 'x' })),
    })
    expect(many.status).toBe(422)
    const empty = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', { messages: [] })
    expect(empty.status).toBe(422)
    expect(await t.memory.messages.count('w')).toBe(0)
  })

  it('strips NUL characters', async () => {
    const res = await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
      messages: [{ peer_id: 'alice', content: 'a\u0000b', metadata: { 'k\u0000': 'v\u0000' } }],
    })
    expect(await res.json()).toMatchObject([{ content: 'ab', metadata: { k: 'v' } }])
  })

  it('gets and updates one message, 404 for another session', async () => {
    const [created] = (await (
      await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
        messages: [{ peer_id: 'alice', content: 'x' }],
      })
    ).json()) as { id: string }[]
    const got = await t.call('GET', `/v3/workspaces/w/sessions/s1/messages/${created!.id}`)
    expect(got.status).toBe(200)
    const updated = await t.call('PUT', `/v3/workspaces/w/sessions/s1/messages/${created!.id}`, {
      metadata: { n: 1 },
    })
    expect(await updated.json()).toMatchObject({ id: created!.id, metadata: { n: 1 } })
    expect((await t.call('GET', `/v3/workspaces/w/sessions/s2/messages/${created!.id}`)).status).toBe(404)
  })
})

describe('search', () => {
  it('applies peer_perspective (sessions the peer belonged to) and forced restrictions', async () => {
    await t.call('POST', '/v3/workspaces/w/sessions/s1/messages', {
      messages: [{ peer_id: 'alice', content: 'Kubernetes cluster upgrade planned' }],
    })
    await t.call('POST', '/v3/workspaces/w/sessions/s2/messages', {
      messages: [{ peer_id: 'bob', content: 'Kubernetes dashboards are slow' }],
    })
    const search = async (body: unknown, path = '/v3/workspaces/w/search') =>
      (await (await t.call('POST', path, body)).json()) as {
        session_id: string
        metadata: { hymem: unknown }
      }[]
    expect((await search({ query: 'Kubernetes' })).map((m) => m.session_id).sort()).toEqual(['s1', 's2'])
    expect(
      (await search({ query: 'Kubernetes', filters: { peer_perspective: 'bob' } })).map((m) => m.session_id),
    ).toEqual(['s2'])
    expect(
      (await search({ query: 'Kubernetes' }, '/v3/workspaces/w/sessions/s1/search')).map((m) => m.session_id),
    ).toEqual(['s1'])
    expect(
      (await search({ query: 'Kubernetes' }, '/v3/workspaces/w/peers/bob/search')).map((m) => m.session_id),
    ).toEqual(['s2'])
    const [hit] = await search({ query: 'upgrade', limit: 1 })
    const [topped] = await search({ query: 'dashboards', filters: { metadata: { missing: '*' } } })
    expect(topped?.metadata.hymem).toEqual({
      score: expect.any(Number),
      why: expect.arrayContaining(['fts']),
    })
    expect(hit?.metadata.hymem).toEqual({
      score: expect.any(Number),
      why: expect.arrayContaining(['message']),
    })
    const both = await t.call('POST', '/v3/workspaces/w/search', {
      query: 'x',
      scope: 'sc',
      filters: { session_id: 's1' },
    })
    expect(both.status).toBe(422)
  })
})

describe('conclusions', () => {
  it('deletes a graph conclusion by retracting its edge; 404 for an unknown edge', async () => {
    await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
      messages: [{ peer_id: 'user-alice', content: 'We switched from MySQL to Postgres for billing.' }],
    })
    await t.memory.dream({ workspaceId: 'w' })
    const listed = await t.call('POST', '/v3/workspaces/w/conclusions/list', {
      filters: { observer_id: 'user-alice' },
    })
    const { items } = (await listed.json()) as { items: { id: string; observer_id: string }[] }
    const graph = items.find((c) => c.id.startsWith('kg-'))
    expect(graph).toMatchObject({ observer_id: 'user-alice' })
    expect((await t.call('GET', `/v3/workspaces/w/conclusions/${graph!.id}`)).status).toBe(200)
    expect((await t.call('DELETE', `/v3/workspaces/w/conclusions/${graph!.id}`)).status).toBe(204)
    expect((await t.call('GET', `/v3/workspaces/w/conclusions/${graph!.id}`)).status).toBe(404)
    expect((await t.call('DELETE', '/v3/workspaces/w/conclusions/kg-999999')).status).toBe(404)
  })
})

describe('explicit conclusions are created as given', () => {
  it('never merges by similarity; drops only exact re-statements of the same peers and session', async () => {
    // Gates at zero would merge any two notes if conclusions went through the similarity de-duplication.
    const loose = await openTestServer({
      memory: { notes: { dedupeThreshold: 0, dedupeContentThreshold: 0 } },
    })
    try {
      await loose.call('POST', '/v3/workspaces/w/sessions', { id: 's' })
      const item = (content: string, extra: Record<string, string> = {}) => ({
        content,
        observer_id: 'alice',
        observed_id: 'alice',
        session_id: 's',
        ...extra,
      })
      const first = await loose.call('POST', '/v3/workspaces/w/conclusions', {
        conclusions: [item('Conclusion A'), item('Conclusion B'), item('  conclusion a ')],
      })
      expect(first.status).toBe(201)
      const created = (await first.json()) as { id: string; content: string }[]
      expect(created.map((c) => c.content)).toEqual(['Conclusion A', 'Conclusion B'])
      expect(new Set(created.map((c) => c.id)).size).toBe(2)

      const again = await loose.call('POST', '/v3/workspaces/w/conclusions', {
        conclusions: [
          item('Conclusion B'),
          item('Conclusion B', { observed_id: 'bob' }),
          item('Conclusion C'),
        ],
      })
      expect(
        ((await again.json()) as { content: string; observed_id: string }[]).map((c) => [
          c.content,
          c.observed_id,
        ]),
      ).toEqual([
        ['Conclusion B', 'bob'],
        ['Conclusion C', 'alice'],
      ])
      const listed = await loose.call('POST', '/v3/workspaces/w/conclusions/list', {})
      expect(((await listed.json()) as { total: number }).total).toBe(4)
    } finally {
      await loose.close()
    }
  })
})
