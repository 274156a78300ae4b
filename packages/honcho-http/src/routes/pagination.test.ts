import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'

let t: TestServer
beforeEach(async () => {
  t = await openTestServer()
})
afterEach(async () => {
  await t.close()
})

const ids = async (res: Response) =>
  ((await res.json()) as { items: { id: string }[] }).items.map((i) => i.id)

describe('paginated list routes', () => {
  it("pages and reverses a peer's sessions, honouring filters", async () => {
    for (const id of ['s1', 's2', 's3']) {
      await t.call('POST', '/v3/workspaces/w/sessions', { id, peers: { alice: {} } })
    }
    await t.call('POST', '/v3/workspaces/w/sessions', { id: 's4', peers: { bob: {} } })
    const page = await t.call('POST', '/v3/workspaces/w/peers/alice/sessions?page=2&size=2')
    expect(await page.json()).toMatchObject({ items: [{ id: 's3' }], total: 3, page: 2, size: 2, pages: 2 })
    const reversed = await t.call('POST', '/v3/workspaces/w/peers/alice/sessions?reverse=true', {
      filters: { id: { ne: 's2' } },
    })
    expect(await ids(reversed)).toEqual(['s3', 's1'])
  })

  it('pages scopes and the sessions of a scope, newest last unless reversed', async () => {
    for (const id of ['a', 'b', 'c']) {
      expect((await t.call('POST', '/v3/workspaces/w/scopes', { id })).status).toBe(201)
      await t.call('POST', '/v3/workspaces/w/sessions', { id: `s-${id}` })
    }
    expect(await (await t.call('POST', '/v3/workspaces/w/scopes/list?size=2')).json()).toMatchObject({
      items: [{ id: 'a' }, { id: 'b' }],
      total: 3,
      page: 1,
      size: 2,
      pages: 2,
    })
    expect(await ids(await t.call('POST', '/v3/workspaces/w/scopes/list?reverse=1'))).toEqual(['c', 'b', 'a'])

    await t.call('POST', '/v3/workspaces/w/scopes/a/sessions', { session_ids: ['s-b', 's-a', 's-c'] })
    const members = await t.call('POST', '/v3/workspaces/w/scopes/a/sessions/list?page=1&size=2')
    expect(await members.json()).toMatchObject({
      items: [{ id: 's-a' }, { id: 's-b' }],
      total: 3,
      pages: 2,
    })
    const empty = await t.call('POST', '/v3/workspaces/w/scopes/b/sessions/list')
    expect(await empty.json()).toEqual({ items: [], total: 0, page: 1, size: 50, pages: 0 })
  })
})
