import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../../test/harness'

let t: TestMemory
afterEach(async () => {
  await t?.close()
})

/** Two sessions a month and a half apart: the second moves the API from Heroku to Fly.io. */
async function dreamt(): Promise<TestMemory> {
  t = await openTestMemory()
  await t.memory.capture(
    [
      {
        role: 'user',
        name: 'maya',
        content: 'The Ledgerly API is written in TypeScript. We deploy the API to Heroku.',
        createdAt: '2026-01-10T10:00:00.000Z',
      },
      { role: 'assistant', content: 'Noted.', createdAt: '2026-01-10T10:00:30.000Z' },
      {
        role: 'user',
        name: 'maya',
        content: 'The job queue depends on Redis.',
        createdAt: '2026-01-10T10:01:00.000Z',
      },
    ],
    { sessionId: 'onboarding' },
  )
  await t.memory.dream()
  await t.memory.capture(
    [
      {
        role: 'user',
        name: 'bob',
        content: 'We deploy the API to Fly.io now.',
        createdAt: '2026-03-01T10:00:00.000Z',
      },
    ],
    { sessionId: 'release' },
  )
  await t.memory.dream()
  return t
}

const triples = (edges: { subject: string; predicate: string; object: string }[]) =>
  edges.map((e) => `${e.subject} ${e.predicate} ${e.object}`).sort()

describe('memory.inspect over a dreamt memory', () => {
  it('draws the current graph with entity types, and the graph as of a date before the move', async () => {
    const { memory } = await dreamt()
    const now = await memory.inspect.graph()
    expect(triples(now.edges)).toEqual([
      'api deploys_to flyio',
      'job_queue depends_on redis',
      'ledgerly_api uses type_script',
    ])
    expect(now).toMatchObject({ total: 3, hidden: 0, asOf: null })
    expect(now.nodes.find((n) => n.id === 'flyio')).toEqual({ id: 'flyio', type: 'platform', degree: 1 })
    const before = await memory.inspect.graph({ asOf: '2026-02-01' })
    expect(triples(before.edges)).toContain('api deploys_to heroku')
    expect(triples(before.edges)).not.toContain('api deploys_to flyio')
    expect(before.asOf).toBe('2026-02-01T00:00:00.000Z')
    const capped = await memory.inspect.graph({ limit: 1, includeInactive: true })
    expect(capped).toMatchObject({ total: 4, hidden: 3 })
  })

  it('filters by entity (canonicalised), peer and session', async () => {
    const { memory } = await dreamt()
    expect(triples((await memory.inspect.graph({ entity: 'Fly.io' })).edges)).toEqual([
      'api deploys_to flyio',
    ])
    expect(triples((await memory.inspect.graph({ peerId: 'bob' })).edges)).toEqual(['api deploys_to flyio'])
    expect(triples((await memory.inspect.graph({ sessionId: 'onboarding' })).edges)).toEqual([
      'job_queue depends_on redis',
      'ledgerly_api uses type_script',
    ])
    const filters = await memory.inspect.filters()
    expect(filters.peers.sort()).toEqual(['assistant', 'bob', 'maya'])
    expect(filters.sessions.sort()).toEqual(['onboarding', 'release'])
    expect(filters.predicates.map((p) => p.predicate)).toContain('deploys_to')
  })

  it('shows one fact with its source messages, types and supersede chain', async () => {
    const { memory } = await dreamt()
    const graph = await memory.inspect.graph({ includeInactive: true })
    const heroku = graph.edges.find((e) => e.object === 'heroku')!
    const fly = graph.edges.find((e) => e.object === 'flyio')!
    const fact = (await memory.inspect.fact(heroku.id))!
    expect(fact.edge).toMatchObject({ status: 'stale', validTo: '2026-03-01T10:00:00.000Z' })
    expect([fact.subjectType, fact.objectType]).toEqual([null, 'platform'])
    expect(fact.replacedBy.map((e) => e.id)).toEqual([fly.id])
    expect(fact.evidence).toHaveLength(1)
    const [evidence] = fact.evidence
    expect(evidence?.text).toBe('We deploy the API to Heroku.')
    expect(evidence?.chunk?.sessionId).toBe('onboarding')
    expect(evidence?.messages.map((m) => [m.peerId, m.sessionId])).toContainEqual(['maya', 'onboarding'])
    expect(evidence?.messages.some((m) => m.content.includes('We deploy the API to Heroku.'))).toBe(true)
    const newer = (await memory.inspect.fact(fly.id))!
    expect(newer.replaced.map((e) => e.id)).toEqual([heroku.id])
    expect(await memory.inspect.fact(99_999)).toBeNull()
    const messages = await memory.inspect.messages(evidence!.messages.map((m) => m.id).reverse())
    expect(messages.map((m) => m.id)).toEqual(evidence!.messages.map((m) => m.id).reverse())
    expect(
      await memory.inspect.messages(
        evidence!.messages.map((m) => m.id),
        { workspaceId: 'other' },
      ),
    ).toEqual([])
  })

  it('tells the history: appearances, the supersession and a retraction', async () => {
    const { memory } = await dreamt()
    t.clock.set('2026-03-05T12:00:00.000Z')
    await memory.retract({ subject: 'job queue', predicate: 'depends_on', object: 'redis' })
    const timeline = await memory.inspect.timeline()
    expect(timeline.days).toEqual([
      { day: '2026-01-10', appeared: 3, superseded: 0, retracted: 0 },
      { day: '2026-03-01', appeared: 1, superseded: 1, retracted: 0 },
      { day: '2026-03-05', appeared: 0, superseded: 0, retracted: 1 },
    ])
    expect(timeline.events.slice(0, 3).map((e) => [e.kind, e.object])).toEqual([
      ['retracted', 'redis'],
      ['superseded', 'heroku'],
      ['appeared', 'flyio'],
    ])
    expect((await memory.inspect.timeline({ limit: 2 })).events).toHaveLength(2)
  })

  it('lists notes with archived ones, dream runs and search figures', async () => {
    const { memory } = await dreamt()
    const { note } = await memory.notes.remember({
      description: 'Deploys on Friday',
      content: 'Ship on Fridays.',
    })
    await memory.notes.remember({ description: 'Use pnpm', content: 'Always pnpm.' })
    await memory.notes.archive({ id: note.id, apply: true })
    expect((await memory.inspect.notes()).items.map((n) => n.description)).toEqual(['Use pnpm'])
    const all = await memory.inspect.notes({ includeArchived: true })
    expect(all.items.map((n) => [n.description, n.archivedAt !== null])).toEqual([
      ['Use pnpm', false],
      ['Deploys on Friday', true],
    ])
    await memory.augment('where do we deploy?')
    const health = await memory.inspect.health()
    expect(health.dreams.map((d) => d.status)).toEqual(['ok', 'ok'])
    expect(health.searchDays.reduce((n, d) => n + d.searches, 0)).toBeGreaterThan(0)
    expect(await memory.inspect.workspaces()).toEqual(['default'])
  })

  it('refuses bad input with a clear error', async () => {
    const { memory } = await dreamt()
    await expect(memory.inspect.graph({ asOf: 'yesterday' })).rejects.toThrow(/asOf must be an ISO-8601 time/)
    await expect(memory.inspect.graph({ entity: '!!!' })).rejects.toThrow(/letters or digits/)
    await expect(memory.inspect.fact(1.5)).rejects.toThrow(/must be an integer/)
    await expect(memory.inspect.notes({ size: 0 })).rejects.toThrow(/size must be an integer/)
    await expect(memory.inspect.graph({ workspaceId: '' })).rejects.toThrow()
  })
})
