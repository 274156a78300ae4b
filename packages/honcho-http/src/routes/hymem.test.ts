import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'

let t: TestServer
beforeEach(async () => {
  t = await openTestServer()
})
afterEach(async () => {
  await t.close()
})

const base = '/v3/workspaces/w/hymem'

async function addMessages(session: string, messages: { peer_id: string; content: string }[]) {
  const res = await t.call('POST', `/v3/workspaces/w/sessions/${session}/messages`, { messages })
  return (await res.json()) as { id: string; content: string }[]
}

describe('HyMem extension routes: forgetting', () => {
  it('forgets one message, several messages and a peer, answering 202 with the receipt', async () => {
    const added = await addMessages('s', [
      { peer_id: 'ann', content: 'one' },
      { peer_id: 'bob', content: 'two' },
      { peer_id: 'ann', content: 'three' },
    ])
    const one = await t.call('DELETE', `${base}/messages/${added[0]!.id}`)
    expect(one.status).toBe(202)
    expect(await one.json()).toMatchObject({ kind: 'messages', messageCount: 1, removed: { messages: 1 } })
    expect((await t.call('DELETE', `${base}/messages/${added[0]!.id}`)).status).toBe(404)

    const many = await t.call('POST', `${base}/messages/delete`, { ids: [added[1]!.id, 'unknown'] })
    expect(await many.json()).toMatchObject({ messageCount: 1 })
    expect((await t.call('POST', `${base}/messages/delete`, { ids: [] })).status).toBe(422)

    const peer = await t.call('DELETE', `${base}/peers/ann/messages`)
    expect(peer.status).toBe(202)
    expect(await peer.json()).toMatchObject({ kind: 'peer-messages', target: 'ann', messageCount: 1 })
    expect(await t.memory.messages.count('w')).toBe(0)

    const deletions = (await (await t.call('GET', `${base}/deletions?limit=2`)).json()) as { kind: string }[]
    expect(deletions.map((d) => d.kind)).toEqual(['peer-messages', 'messages'])
    expect((await t.call('GET', `${base}/deletions?limit=0`)).status).toBe(422)
  })

  it('lists notes (archived ones apart), gets one, and deletes it for good', async () => {
    const { note } = await t.memory.notes.remember(
      { description: 'door', content: 'The code is 4711' },
      { workspaceId: 'w' },
    )
    const { note: old } = await t.memory.notes.remember(
      { description: 'wifi', content: 'hunter2' },
      { workspaceId: 'w' },
    )
    await t.memory.notes.archive({ id: old.id, apply: true }, { workspaceId: 'w' })

    const active = await (await t.call('GET', `${base}/notes`)).json()
    expect(active).toMatchObject({ total: 1, page: 1, items: [{ id: note.id, content: 'The code is 4711' }] })
    const archived = await (await t.call('GET', `${base}/notes?archived=true`)).json()
    expect(archived).toMatchObject({ total: 1, items: [{ id: old.id, archivedAt: expect.any(String) }] })

    expect((await t.call('GET', `${base}/notes/${old.id}`)).status).toBe(404)
    expect((await t.call('GET', `${base}/notes/${old.id}?archived=true`)).status).toBe(200)
    const deleted = await t.call('DELETE', `${base}/notes/${note.id}`)
    expect(deleted.status).toBe(202)
    expect(await deleted.json()).toMatchObject({ kind: 'note', target: note.id, removed: { notes: 1 } })
    expect((await t.call('DELETE', `${base}/notes/${note.id}`)).status).toBe(404)
    expect((await t.call('GET', `${base}/notes?size=0`)).status).toBe(422)
  })
})

describe('HyMem extension routes: time, history and conflicts', () => {
  it('augments as of a date, tells an entity’s history, and lists conflicts at both paths', async () => {
    await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
      messages: [
        { peer_id: 'ann', content: 'We deploy the API to Heroku.', created_at: '2026-01-05T00:00:00Z' },
      ],
    })
    await t.memory.dream({ workspaceId: 'w' })
    const now = await t.call('POST', `${base}/augment`, { query: 'where does the API deploy?' })
    expect(
      ((await now.json()) as { graphFacts: { object: string }[] }).graphFacts.map((f) => f.object),
    ).toContain('heroku')
    const then = await t.call('POST', `${base}/augment`, {
      query: 'where does the API deploy?',
      as_of: '2026-01-01',
    })
    expect(await then.json()).toMatchObject({ graphFacts: [], hits: [] })
    expect((await t.call('POST', `${base}/augment`, { query: 'x', as_of: 'yesterday' })).status).toBe(422)

    const history = await t.call('GET', `${base}/history?subject=API`)
    expect(await history.json()).toMatchObject({
      entity: 'api',
      facts: [{ predicate: 'deploys_to', object: 'heroku', becameTrueAt: '2026-01-05T00:00:00.000Z' }],
    })
    expect((await t.call('GET', `${base}/history`)).status).toBe(422)

    for (const path of ['/v3/workspaces/w/conflicts', `${base}/conflicts`]) {
      const res = await t.call('GET', path)
      expect(res.status).toBe(200)
      expect(await res.json()).toEqual([])
    }
  })
})
