import { mkdtempSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { RequestGuard } from '@hymem/http-guard'
import { createHyMem } from 'hymem'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { createInspectorApp } from '../src/app'
import type { GraphData } from '../src/graph-data'
import { CONTENT_SECURITY_POLICY } from '../src/security/headers'
import type { InspectorLogEvent, InspectorOptions } from '../src/types'
import { type DreamtMemory, openDreamtMemory } from './memory-fixture'

type App = ReturnType<typeof createInspectorApp>

function client(app: App, host = '127.0.0.1:8765') {
  return (path: string, init: RequestInit & { headers?: Record<string, string> } = {}) =>
    app.request(`http://${host}${path}`, { ...init, headers: { host, accept: 'text/html', ...init.headers } })
}

function form(
  fields: Record<string, string>,
  headers: Record<string, string> = {},
): RequestInit & { headers: Record<string, string> } {
  return {
    method: 'POST',
    body: new URLSearchParams(fields).toString(),
    headers: {
      'content-type': 'application/x-www-form-urlencoded',
      origin: 'http://127.0.0.1:8765',
      ...headers,
    },
  }
}

/** The CSRF token the page put in its forms. */
async function csrfOf(response: Response): Promise<string> {
  const match = /name="_csrf" value="([^"]+)"/.exec(await response.text())
  if (!match) throw new Error('the page has no CSRF field')
  return match[1]!
}

type Call = ReturnType<typeof client>

async function graphJson(call: Call, search: string): Promise<{ data: GraphData; total: number }> {
  return (await (await call(`/inspect/w/default/graph.json${search}`)).json()) as {
    data: GraphData
    total: number
  }
}

let t: DreamtMemory
beforeAll(async () => {
  t = await openDreamtMemory()
})
afterAll(async () => {
  await t.close()
})

const inspector = (options: Partial<InspectorOptions> = {}) =>
  createInspectorApp({ memory: t.memory, ...options })

describe('the views over a dreamt memory', () => {
  it('opens the only workspace from the start page and draws its graph', async () => {
    const call = client(inspector())
    const start = await call('/inspect')
    expect(start.status).toBe(303)
    expect(start.headers.get('location')).toBe('/inspect/w/default/graph')
    expect((await call('/inspect/')).headers.get('location')).toBe('/inspect')
    const graph = await call('/inspect/w/default/graph')
    expect(graph.status).toBe(200)
    expect(graph.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    const page = await graph.text()
    for (const tag of page.match(/<script[^>]*>/g) ?? [])
      expect(tag).toMatch(/ src="\/inspect\/assets\/|type="application\/json"/)
    const data = JSON.parse(
      /<script type="application\/json" id="graph-data">(.*?)<\/script>/s.exec(page)![1]!,
    )
    expect(data.nodes.map((n: { id: string }) => n.id)).toEqual(
      expect.arrayContaining(['api', 'flyio', 'redis', 'ledgerly_api']),
    )
    expect(data.nodes.map((n: { id: string }) => n.id)).not.toContain('heroku')
    expect(page).toContain('Showing 12 of 12 edges')
  })

  it('caps the picture and says how many edges are hidden; fades inactive edges on request', async () => {
    const call = client(inspector())
    const page = await (await call('/inspect/w/default/graph?limit=3&inactive=1')).text()
    expect(page).toContain('Showing 3 of 13 edges')
    expect(page).toContain('10 hidden')
    const all = await graphJson(call, '?inactive=1')
    const heroku = all.data.edges.find((e) => e.target === 'heroku')
    expect(heroku).toMatchObject({
      inactive: true,
      predicate: 'deploys_to',
      href: expect.stringMatching(/\/fact\/\d+$/),
    })
  })

  it('filters by entity, predicate, peer, session and text', async () => {
    const call = client(inspector())
    const edges = async (search: string) =>
      (await graphJson(call, search)).data.edges.map((e) => `${e.source} ${e.predicate} ${e.target}`)
    expect(await edges('?entity=Fly.io')).toEqual(['api deploys_to flyio'])
    expect(await edges('?predicate=depends_on')).toEqual(['job_queue depends_on redis'])
    // Bob's release chunk also carries evidence against two onboarding facts (the rules extractor's reading).
    expect((await edges('?peer=bob')).sort()).toEqual([
      'api connects_to sentry',
      'api deploys_to flyio',
      'api runs_on nodejs',
      'bob uses grafana_loki',
    ])
    expect(await edges('?session=release&q=loki')).toEqual(['bob uses grafana_loki'])
  })

  it('shows a fact with its source message, the matching words marked, and its supersede chain', async () => {
    const call = client(inspector())
    const all = await graphJson(call, '?inactive=1')
    const heroku = all.data.edges.find((e) => e.target === 'heroku')!
    const page = await (await call(heroku.href)).text()
    expect(page).toContain('<mark>We deploy the API to Heroku.</mark> The job queue depends on Redis.')
    expect(page).toContain('session <strong>onboarding</strong> · <strong>maya</strong>')
    expect(page).toMatch(
      /Replaced by<\/h3><ol class="chain"><li><a href="[^"]+">api — deploys to → flyio<\/a>/,
    )
    expect(page).toContain('Object type</dt><dd>platform')
    expect((await call('/inspect/w/default/fact/99999')).status).toBe(404)
    expect((await call('/inspect/w/default/fact/abc')).status).toBe(400)
  })

  it('answers a question with ranked items, readable reasons and timing; as of February it names Heroku', async () => {
    const call = client(inspector())
    const now = await (await call('/inspect/w/default/ask?q=where+do+we+deploy+the+API%3F')).text()
    expect(now).toContain('api — deploys to → flyio')
    expect(now).toContain('The question asks about “deploys to”')
    expect(now).toMatch(/augment took <strong>[\d.]+ (ms|s)<\/strong>/)
    expect(now).toMatch(/source messages?<\/a>/)
    const before = await (
      await call('/inspect/w/default/ask?q=where+do+we+deploy+the+API%3F&asOf=2026-02-01')
    ).text()
    expect(before).toContain('api — deploys to → heroku')
    expect(before).not.toContain('api — deploys to → flyio')
    const bad = await call('/inspect/w/default/ask?q=x&asOf=last+week')
    expect(bad.status).toBe(400)
    expect(await bad.text()).toContain('as of must be a date such as 2026-05-01')
  })

  it('shows the timeline, the graph as of a day, the profile with archived notes, and health charts', async () => {
    const call = client(inspector())
    const timeline = await (await call('/inspect/w/default/timeline?at=2026-02-01')).text()
    expect(timeline).toContain('<figcaption>Changes per day</figcaption>')
    expect(timeline).toMatch(/superseded<\/span> <a href="[^"]+">api — deploys to → heroku/)
    const data = JSON.parse(/id="graph-data">(.*?)<\/script>/s.exec(timeline)![1]!)
    expect(data.nodes.map((n: { id: string }) => n.id)).toContain('heroku')
    expect(data.nodes.map((n: { id: string }) => n.id)).not.toContain('flyio')
    // On February 1 the Heroku edge was current: it is drawn solid, not faded.
    expect(data.edges.find((e: { target: string }) => e.target === 'heroku')).toMatchObject({
      inactive: false,
    })
    const profile = await (await call('/inspect/w/default/profile')).text()
    expect(profile).toContain('User prefers pnpm over npm.')
    expect(profile).not.toContain('HyMem:auto')
    expect(profile).toContain('Release checklist')
    expect(profile).toMatch(/Old deploy notes[\s\S]*archived 2026-03-01/)
    const health = await (await call('/inspect/w/default/health')).text()
    expect(health).toContain('<figcaption>Dream duration</figcaption>')
    expect(health).toContain('<figcaption>Latency</figcaption>')
    expect(health).toMatch(/\d+ searches over \d+ days, 0% returned nothing/)
  })

  it('lists source messages by id with the question’s words marked', async () => {
    const call = client(inspector())
    const page = await (await call('/inspect/w/default/messages?ids=4&mark=heroku')).text()
    expect(page).toContain('We deploy the API to <mark>Heroku</mark>.')
    expect((await call('/inspect/w/default/messages?ids=1,x')).status).toBe(400)
  })
})

describe('failures', () => {
  it('shows an unexpected error as a plain 500 page (no stack) and reports it to the log', async () => {
    const events: InspectorLogEvent[] = []
    const broken = Object.create(t.memory) as typeof t.memory
    Object.defineProperty(broken, 'inspect', {
      value: {
        ...t.memory.inspect,
        graph: async () => {
          throw new Error('disk on fire')
        },
      },
    })
    const call = client(createInspectorApp({ memory: broken, log: (event) => events.push(event) }))
    const res = await call('/inspect/w/default/graph')
    expect(res.status).toBe(500)
    expect(res.headers.get('content-security-policy')).toBe(CONTENT_SECURITY_POLICY)
    const page = await res.text()
    expect(page).toContain('The inspector failed to answer; the server log has the details.')
    expect(page).not.toContain('disk on fire')
    expect(events).toMatchObject([{ kind: 'error', method: 'GET', path: '/inspect/w/default/graph' }])
    expect((await call('/inspect/no/such/page')).status).toBe(404)
  })
})

describe('access', () => {
  const PUBLIC = new RequestGuard({ loopback: false, allowedHosts: ['hymem.example.org'] })
  const auth = { tokens: { 'team-token': ['team'], 'admin-token': '*' as const } }

  it('refuses a request without a valid token when auth is on, and offers a sign-in form to browsers', async () => {
    const call = client(inspector({ auth, guard: PUBLIC }), 'hymem.example.org')
    const page = await call('/inspect/w/default/graph')
    expect(page.status).toBe(401)
    expect(await page.text()).toContain('<form method="post" action="/inspect/sign-in"')
    const api = await call('/inspect/w/default/graph.json', { headers: { accept: 'application/json' } })
    expect(api.status).toBe(401)
    expect(api.headers.get('www-authenticate')).toBe('Bearer')
    const wrong = await call('/inspect/w/default/graph', { headers: { authorization: 'Bearer nope' } })
    expect(wrong.status).toBe(401)
    const admin = await call('/inspect/w/default/graph', { headers: { authorization: 'Bearer admin-token' } })
    expect(admin.status).toBe(200)
  })

  it('shows a token only its workspaces (404, not 403, for the others)', async () => {
    await t.memory.capture([{ role: 'user', content: 'The team uses Postgres.' }], { workspaceId: 'team' })
    const call = client(inspector({ auth, guard: PUBLIC }), 'hymem.example.org')
    const team = { authorization: 'Bearer team-token' }
    expect((await call('/inspect/w/default/graph', { headers: team })).status).toBe(404)
    expect((await call('/inspect/w/team/graph', { headers: team })).status).toBe(200)
    expect((await call('/inspect', { headers: team })).headers.get('location')).toBe('/inspect/w/team/graph')
    const picker = await call('/inspect', { headers: { authorization: 'Bearer admin-token' } })
    expect(picker.status).toBe(200)
    expect(await picker.text()).toMatch(
      /href="\/inspect\/w\/default\/graph"[\s\S]*href="\/inspect\/w\/team\/graph"/,
    )
  })

  it('signs a browser in with a token (HttpOnly, SameSite=Strict cookie) and out again', async () => {
    const call = client(inspector({ auth, guard: PUBLIC }), '127.0.0.1:8765')
    const bad = await call('/inspect/sign-in', form({ token: 'nope' }))
    expect(bad.status).toBe(401)
    const ok = await call('/inspect/sign-in', form({ token: 'admin-token' }))
    expect(ok.status).toBe(303)
    const cookie = ok.headers.get('set-cookie')!
    expect(cookie).toMatch(/^hymem_inspect=[\w-]+; Path=\/inspect; HttpOnly; SameSite=Strict$/)
    expect(cookie).not.toContain('admin-token')
    const session = { cookie: cookie.split(';')[0]! }
    const graph = await call('/inspect/w/default/graph', { headers: session })
    expect(graph.status).toBe(200)
    const csrf = await csrfOf(graph)
    const out = await call('/inspect/sign-out', form({ _csrf: csrf }, session))
    expect(out.status).toBe(303)
    expect(out.headers.get('set-cookie')).toMatch(/^hymem_inspect=; Max-Age=0/)
  })

  it('answers only loopback Host names on a loopback server (DNS rebinding)', async () => {
    expect((await client(inspector(), 'evil.example:8765')('/inspect/w/default/graph')).status).toBe(421)
    expect((await client(inspector(), 'localhost:8765')('/inspect/w/default/graph')).status).toBe(200)
    expect((await client(inspector(), '[::1]:8765')('/inspect/w/default/graph')).status).toBe(200)
  })

  it('refuses writes without the CSRF token or from another origin, and other methods', async () => {
    const call = client(inspector())
    const profile = await call('/inspect/w/default/profile')
    const csrf = await csrfOf(profile)
    const noteId = /notes\/([^/]+)\/forget/.exec(await (await call('/inspect/w/default/profile')).text())![1]!
    const path = `/inspect/w/default/notes/${noteId}/forget`
    expect((await call(path, form({}))).status).toBe(403)
    expect((await call(path, form({ _csrf: 'forged' }))).status).toBe(403)
    expect((await call(path, form({ _csrf: csrf }, { origin: 'http://evil.example' }))).status).toBe(403)
    expect((await call(path, form({ _csrf: csrf }, { 'sec-fetch-site': 'cross-site' }))).status).toBe(403)
    expect((await call(path, { method: 'DELETE' })).status).toBe(400)
    expect((await t.memory.inspect.notes()).items.map((n) => n.id)).toContain(noteId)
  })
})

describe('corrections', () => {
  let w: DreamtMemory
  beforeAll(async () => {
    w = await openDreamtMemory()
  })
  afterAll(async () => {
    await w.close()
  })

  it('forgets a note after a confirmation page, then restores it', async () => {
    const call = client(createInspectorApp({ memory: w.memory }))
    const active = (await w.memory.inspect.notes()).items.find((n) => n.description === 'Release checklist')!
    const confirm = await call(`/inspect/w/default/notes/${active.id}/forget`)
    const csrf = await csrfOf(confirm)
    const forgot = await call(`/inspect/w/default/notes/${active.id}/forget`, form({ _csrf: csrf }))
    expect(forgot.status).toBe(303)
    expect(forgot.headers.get('location')).toBe('/inspect/w/default/profile?done=forgotten')
    expect(await w.memory.notes.get(active.id)).toBeNull()
    expect(await (await call('/inspect/w/default/profile?done=forgotten')).text()).toContain(
      'Forgotten: the note is archived',
    )
    const restored = await call(`/inspect/w/default/notes/${active.id}/restore`, form({ _csrf: csrf }))
    expect(restored.status).toBe(303)
    expect((await w.memory.notes.get(active.id))?.archivedAt).toBeNull()
    expect((await call('/inspect/w/default/notes/nope/restore', form({ _csrf: csrf }))).status).toBe(404)
  })

  it('merges an entity into another after a confirmation page', async () => {
    const call = client(createInspectorApp({ memory: w.memory }))
    const confirm = await call('/inspect/w/default/merge?from=grafana_loki&into=loki&back=1')
    const page = await confirm.clone().text()
    expect(page).toContain('Merge <strong>grafana loki</strong> into <strong>loki</strong>?')
    const merged = await call(
      '/inspect/w/default/merge',
      form({ _csrf: await csrfOf(confirm), from: 'grafana_loki', into: 'loki' }),
    )
    expect(merged.status).toBe(303)
    expect(merged.headers.get('location')).toBe('/inspect/w/default/graph?entity=loki&done=merged')
    const edges = (await w.memory.inspect.graph({ entity: 'loki' })).edges
    expect(edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`)).toEqual(['bob uses loki'])
    expect((await call('/inspect/w/default/merge?from=&into=x')).status).toBe(400)
  })

  it('retracts a fact for a bearer-token client (no CSRF token needed) and refuses derived or unknown facts', async () => {
    const call = client(createInspectorApp({ memory: w.memory, auth: { tokens: { admin: '*' } } }))
    const bearer = { authorization: 'Bearer admin' }
    const redis = (await w.memory.inspect.graph({ entity: 'redis' })).edges[0]!
    const done = await call(`/inspect/w/default/fact/${redis.id}/retract`, {
      method: 'POST',
      headers: { ...bearer, 'content-type': 'application/x-www-form-urlencoded' },
      body: 'reason=wrong',
    })
    expect(done.status).toBe(303)
    expect((await w.memory.inspect.fact(redis.id))?.edge.status).toBe('retracted')
    const page = await (
      await call(`/inspect/w/default/fact/${redis.id}?done=retracted`, { headers: bearer })
    ).text()
    expect(page).toContain('Retracted: augment no longer returns it')
    expect(page).toContain('This fact is retracted.')
    expect((await call('/inspect/w/default/fact/99999/retract', { headers: bearer })).status).toBe(404)
  })
})

describe('the start page', () => {
  it('marks the passage of a long turn that found it in the Ask view', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hymem-inspector-passage-'))
    const memory = await createHyMem({ root, query: { passageWeight: 1 } })
    try {
      const tail = 'For the rollback, pgbouncer must run in transaction mode.'
      const long = `${'The general setup of the billing service has many settings to walk through. '.repeat(20)}\n\n${tail}`
      await memory.capture([
        { role: 'user', content: 'How do we set up the billing service?' },
        { role: 'assistant', content: long },
      ])
      await memory.dream()
      const page = await (
        await client(createInspectorApp({ memory }))('/inspect/w/default/ask?q=pgbouncer+transaction+mode')
      ).text()
      expect(page).toMatch(
        /<mark class="passage">[^<]*For the rollback, pgbouncer must run in transaction mode\.<\/mark>/,
      )
      expect(page).toContain('Found by a passage of this long message')
    } finally {
      await memory.close()
      rmSync(root, { recursive: true, force: true })
    }
  })

  it('opens the only workspace with data, even when the default one is empty', async () => {
    const root = mkdtempSync(join(tmpdir(), 'hymem-inspector-start-'))
    const memory = await createHyMem({ root })
    try {
      await memory.capture([{ role: 'user', content: 'We use Redis.' }], { workspaceId: 'demo' })
      const call = client(createInspectorApp({ memory }))
      expect((await call('/inspect')).headers.get('location')).toBe('/inspect/w/demo/graph')
      expect((await call('/inspect/w/default/graph')).status).toBe(200)
      expect(await (await call('/inspect/w/demo/graph')).text()).not.toContain('(switch)')
    } finally {
      await memory.close()
      rmSync(root, { recursive: true, force: true })
    }
  })
})
