import { afterEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../test/harness'

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const auth = { tokens: { 'team-token': ['team'], 'admin-token': '*' as const } }

describe('auth', () => {
  it('answers 401 without a token and with an unknown one', async () => {
    t = await openTestServer({ auth })
    const none = await t.call('POST', '/v3/workspaces', { id: 'team' })
    expect(none.status).toBe(401)
    expect(await none.json()).toEqual({ detail: 'Not authenticated' })
    const wrong = await t.call('POST', '/v3/workspaces', { id: 'team' }, { authorization: 'Bearer nope' })
    expect(wrong.status).toBe(401)
    expect((await t.call('GET', '/health')).status).toBe(200)
  })

  it('answers 404, not 403, for a workspace the token may not use, and filters the workspace list', async () => {
    t = await openTestServer({ auth })
    const team = { authorization: 'Bearer team-token' }
    const admin = { authorization: 'Bearer admin-token' }
    expect((await t.call('POST', '/v3/workspaces', { id: 'team' }, team)).status).toBe(201)
    expect((await t.call('POST', '/v3/workspaces', { id: 'secret' }, admin)).status).toBe(201)
    const denied = await t.call('POST', '/v3/workspaces/secret/peers/list', undefined, team)
    expect(denied.status).toBe(404)
    expect(await denied.json()).toEqual({ detail: 'Workspace secret not found' })
    expect((await t.call('POST', '/v3/workspaces', { id: 'secret' }, team)).status).toBe(404)
    expect((await t.call('DELETE', '/v3/workspaces/secret', undefined, team)).status).toBe(404)
    const teamList = (await (await t.call('POST', '/v3/workspaces/list', undefined, team)).json()) as {
      items: { id: string }[]
    }
    expect(teamList.items.map((w) => w.id)).toEqual(['team'])
    const adminList = (await (await t.call('POST', '/v3/workspaces/list', undefined, admin)).json()) as {
      items: { id: string }[]
    }
    expect(adminList.items.map((w) => w.id)).toEqual(['team', 'secret'])
  })
})

describe('limits and malformed requests', () => {
  it('answers 413 for a JSON body over the limit and writes nothing', async () => {
    t = await openTestServer({ limits: { jsonBodyBytes: 10_000 } })
    const res = await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
      messages: [{ peer_id: 'alice', content: 'x'.repeat(20_000) }],
    })
    expect(res.status).toBe(413)
    expect(await res.json()).toEqual({ detail: 'Request body exceeds 10000 bytes' })
    expect(await t.memory.messages.count('w')).toBe(0)
  })

  it('turns uploads into messages split at 25 000 characters; 413 over 5 MB, 415 for other types', async () => {
    t = await openTestServer()
    const upload = (file: Blob, name: string) => {
      const form = new FormData()
      form.set('file', file, name)
      form.set('peer_id', 'alice')
      form.set('metadata', JSON.stringify({ imported: true }))
      return t!.app.request('/v3/workspaces/w/sessions/s/messages/upload', { method: 'POST', body: form })
    }
    const text = `${'a'.repeat(20_000)}\n\n${'b'.repeat(20_000)}`
    const ok = await upload(new Blob([text], { type: 'text/markdown' }), 'MEMORY.md')
    expect(ok.status).toBe(201)
    const messages = (await ok.json()) as { content: string; metadata: unknown }[]
    expect(messages.map((m) => m.content.length)).toEqual([20_002, 20_000])
    expect(messages[0]?.metadata).toEqual({ imported: true })
    const json = await upload(new Blob(['{"a":1}'], { type: 'application/json' }), 'x.json')
    expect(((await json.json()) as { content: string }[])[0]?.content).toBe('{\n  "a": 1\n}')
    const pdf = await upload(new Blob(['%PDF-1.4'], { type: 'application/pdf' }), 'x.pdf')
    expect(pdf.status).toBe(415)
    const big = await upload(new Blob(['x'.repeat(5 * 1024 * 1024 + 1)], { type: 'text/plain' }), 'big.txt')
    expect(big.status).toBe(413)
    expect(await t.memory.messages.count('w')).toBe(3)
  })

  it('parses JSON array bodies on DELETE', async () => {
    t = await openTestServer()
    await t.call('POST', '/v3/workspaces/w/sessions', { id: 's', peers: { alice: {}, bob: {} } })
    const res = await t.call('DELETE', '/v3/workspaces/w/sessions/s/peers', ['bob'])
    expect(res.status).toBe(200)
    const members = (await (await t.call('GET', '/v3/workspaces/w/sessions/s/peers')).json()) as {
      items: { id: string }[]
    }
    expect(members.items.map((p) => p.id)).toEqual(['alice'])
  })

  it('rejects bad metadata, ids, filters and page sizes with 422', async () => {
    t = await openTestServer()
    const deep = { a: { b: { c: { d: { e: { f: 1 } } } } } }
    expect((await t.call('POST', '/v3/workspaces', { id: 'w', metadata: deep })).status).toBe(422)
    const many = Object.fromEntries(Array.from({ length: 101 }, (_, i) => [`k${i}`, i]))
    expect((await t.call('POST', '/v3/workspaces', { id: 'w', metadata: many })).status).toBe(422)
    expect((await t.call('POST', '/v3/workspaces', { id: 'x'.repeat(513) })).status).toBe(422)
    expect((await t.call('POST', '/v3/workspaces/w/peers', { id: 'scope.x' })).status).toBe(422)
    expect((await t.call('POST', '/v3/workspaces/w/peers/list?size=101')).status).toBe(422)
    expect((await t.call('POST', '/v3/workspaces/w/peers/list?page=0')).status).toBe(422)
    const filter = await t.call('POST', '/v3/workspaces/w/sessions/s/messages/list', { filters: { id: 'x' } })
    expect(filter.status).toBe(422)
    expect(await filter.json()).toEqual({ detail: "Column 'id' is not allowed for filtering messages" })
    const chat = await t.call('POST', '/v3/workspaces/w/peers/alice/chat', {
      query: 'x',
      filters: { peer_id: 'a' },
    })
    expect(chat.status).toBe(422)
    const blank = await t.call('POST', '/v3/workspaces/w/search', { query: '   ' })
    expect(blank.status).toBe(422)
  })

  it('answers unknown routes with a 404 detail', async () => {
    t = await openTestServer()
    const res = await t.call('GET', '/v3/nothing-here')
    expect(res.status).toBe(404)
    expect(await res.json()).toEqual({ detail: 'Not Found' })
  })

  it('answers 500 with a generic detail and no stack when storage fails', async () => {
    t = await openTestServer()
    const { note } = await t.memory.notes.remember(
      { description: 'Deploys', content: 'Deploys on Fridays.' },
      { workspaceId: 'w' },
    )
    // The note index re-pinned behind the server's back to a model its embedder is not: storing a note fails.
    await t.coreStore.vectors.reset()
    await t.coreStore.vectors.upsert(
      'notes',
      [{ id: note.id, workspaceId: 'w', vector: new Float32Array([1, 0]), textHash: 'x' }],
      'another-model',
    )
    const res = await t.call('POST', '/v3/workspaces/w/conclusions', {
      conclusions: [{ content: 'Alice prefers tea.', observer_id: 'bot', observed_id: 'user-alice' }],
    })
    expect(res.status).toBe(500)
    expect(await res.json()).toEqual({ detail: 'An unexpected error occurred' })
    const logged = t.events.find((e) => e.kind === 'error')
    expect(logged).toMatchObject({ error: { name: 'StoreError', code: 'VECTOR_MISMATCH' } })
  })

  it('answers 503 with the reason when the store is closed under the app', async () => {
    t = await openTestServer()
    await t.call('POST', '/v3/workspaces/w/scopes', { id: 'sc' })
    await t.coreStore.close()
    const res = await t.call('GET', '/v3/workspaces/w/scopes/sc/status')
    expect(res.status).toBe(503)
    expect(await res.json()).toEqual({ detail: expect.stringMatching(/^the store at .+ is closed/) })
    expect(t.events.some((e) => e.kind === 'error')).toBe(false)
  })
})

describe('dialectic streaming on the wire', () => {
  it('emits data: lines ending with done, and null content for an empty memory', async () => {
    t = await openTestServer()
    await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
      messages: [{ peer_id: 'user-alice', content: 'We switched from MySQL to Postgres for billing.' }],
    })
    await t.memory.dream({ workspaceId: 'w' })
    const res = await t.call(
      'POST',
      '/v3/workspaces/w/peers/user-alice/chat',
      { query: 'Which database for billing?', stream: true },
      { accept: 'text/event-stream' },
    )
    expect(res.headers.get('content-type')).toContain('text/event-stream')
    const events = (await res.text()).split('\n\n').filter(Boolean)
    expect(events.every((e) => e.startsWith('data: '))).toBe(true)
    const parsed = events.map(
      (e) => JSON.parse(e.slice('data: '.length)) as { done: boolean; delta?: { content: string } },
    )
    expect(parsed.at(-1)).toEqual({ done: true })
    expect(parsed.slice(0, -1).every((p) => p.done === false && typeof p.delta?.content === 'string')).toBe(
      true,
    )
    const plain = await t.call('POST', '/v3/workspaces/w/peers/nobody/chat', { query: 'anything?' })
    expect(await plain.json()).toEqual({ content: null, facts: [] })
  })
})
