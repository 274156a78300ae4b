import { type Honcho, NotFoundError } from '@honcho-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer, waitForQueue } from './live'

let live: LiveServer
let honcho: Honcho

beforeAll(async () => {
  live = await startLiveServer({ backgroundDreaming: true })
  honcho = live.client('mem')
  const session = await honcho.session('s1')
  const alice = await honcho.peer('user-alice')
  const agent = await honcho.peer('hermes')
  await session.addMessages([
    alice.message('We switched from MySQL to Postgres for the billing service.'),
    agent.message('Got it, billing now runs on Postgres.'),
    alice.message('I prefer pnpm over npm for every project.'),
    alice.message('The billing service depends on Redis for caching.'),
  ])
})
afterAll(async () => {
  await live.stop()
})

describe('SDK contract: dreaming and queue status', () => {
  it('queueStatus() reaches zero pending after the background dream; scheduleDream() runs another', async () => {
    await waitForQueue(honcho)
    const status = await honcho.queueStatus()
    expect(status).toMatchObject({
      pendingWorkUnits: 0,
      inProgressWorkUnits: 0,
      totalWorkUnits: 4,
      completedWorkUnits: 4,
    })
    const session = await honcho.session('s1')
    expect(await session.queueStatus()).toMatchObject({ pendingWorkUnits: 0, totalWorkUnits: 4 })
    await session.addMessages([(await honcho.peer('user-alice')).message('Our CI uses GitHub Actions.')])
    await honcho.scheduleDream({ observer: 'user-alice' })
    await waitForQueue(honcho)
    expect((await honcho.queueStatus()).completedWorkUnits).toBe(5)
  })
})

describe('SDK contract: chat', () => {
  it('chat() answers from the graph facts without an LLM; includeEvidence adds evidence', async () => {
    const alice = await honcho.peer('user-alice')
    const answer = await alice.chat('What database does billing use?')
    expect(answer).toMatch(/postgres/i)
    const facts = await alice.chat('What does the billing service depend on?')
    // The billing service is no peer: its facts are the shared world's, listed apart from the peer's.
    expect(facts).toContain('Shared world (projects, services):')
    expect(facts).toContain('billing_service depends on redis')
    const withEvidence = await alice.chat('What database does billing use?', { includeEvidence: true })
    expect(withEvidence.content).toBe(answer)
    expect(withEvidence.evidence?.tool_calls[0]?.tool_name).toBe('augment')
    expect(withEvidence.evidence?.conclusions.length).toBeGreaterThan(0)
    const stranger = await live.client('empty-ws').peer('nobody')
    expect(await stranger.chat('What database does billing use?')).toBeNull()
    const workspaceAnswer = await honcho.chat('Which package manager is preferred?')
    expect(workspaceAnswer).toContain('pnpm')
  })

  it('chatStream() yields deltas that add up to the non-streamed answer', async () => {
    const alice = await honcho.peer('user-alice')
    const expected = await alice.chat('What database does billing use?')
    const stream = await alice.chatStream('What database does billing use?', { includeEvidence: true })
    const chunks = await stream.toArray()
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe(expected)
    expect(stream.evidence?.tool_calls[0]?.tool_name).toBe('augment')
    const workspaceStream = await honcho.chatStream('Which package manager is preferred?')
    expect(await workspaceStream.getFinalResponse()).toContain('pnpm')
  })
})

describe('SDK contract: no internal Markdown markers', () => {
  it('summaries, session context, card and representation are plain text', async () => {
    await waitForQueue(honcho)
    const alice = await honcho.peer('user-alice')
    const session = await honcho.session('s1')
    const context = await session.context({ tokens: 2000, peerTarget: alice })
    const summaries = await session.summaries()
    // Five messages are below Honcho's summary cadence (sdk-summaries checks the summaries' text).
    expect(summaries.longSummary).toBeNull()
    const texts = [
      context.summary?.content ?? '',
      ...context.messages.map((m) => m.content),
      context.peerRepresentation ?? '',
      ...(context.peerCard ?? []),
      summaries.shortSummary?.content ?? '',
      summaries.longSummary?.content ?? '',
      ...((await alice.getCard()) ?? []),
      await alice.representation(),
    ]
    for (const text of texts) expect(text).not.toContain('<!--')
  })
})

describe('SDK contract: conclusions, representation, card, context', () => {
  it('create / list / get / getMany / query / derived / delete', async () => {
    const alice = await honcho.peer('user-alice')
    const agent = await honcho.peer('hermes')
    const view = agent.conclusionsOf(alice)
    const created = await view.create([
      { content: 'Alice is the billing team lead.', sessionId: 's1' },
      { content: 'Alice dislikes long meetings.' },
    ])
    expect(created.map((c) => [c.observerId, c.observedId, c.level, c.sessionId])).toEqual([
      ['hermes', 'user-alice', 'explicit', 's1'],
      ['hermes', 'user-alice', 'explicit', null],
    ])
    const listed = await view.list()
    expect(listed.items.map((c) => c.content)).toEqual([
      'Alice dislikes long meetings.',
      'Alice is the billing team lead.',
    ])
    expect((await view.list({ session: 's1' })).items.map((c) => c.id)).toEqual([created[0]!.id])
    expect((await view.get(created[0]!.id)).content).toBe('Alice is the billing team lead.')
    expect((await view.getMany(created.map((c) => c.id))).length).toBe(2)
    const found = await view.query('billing lead', 5)
    expect(found[0]?.id).toBe(created[0]!.id)

    const { note } = await live.memory.notes.remember(
      {
        description: 'derived',
        content: 'Alice probably runs billing planning.',
        observerId: 'hermes',
        observedId: 'user-alice',
        level: 'deductive',
        sourceIds: [created[0]!.id],
      },
      { workspaceId: 'mem' },
    )
    expect((await view.derived(created[0]!.id)).items.map((c) => c.id)).toEqual([note.id])

    const representation = await view.representation()
    expect(representation).toContain('## Explicit Observations')
    expect(representation).toContain('Alice is the billing team lead.')
    expect(representation).toContain('## Deductive Observations')
    expect(representation).toContain('   - Alice is the billing team lead.')

    const all = await honcho.conclusions.list()
    expect(all.total).toBeGreaterThanOrEqual(3)
    expect((await honcho.conclusions.get(created[1]!.id)).content).toBe('Alice dislikes long meetings.')
    expect((await honcho.conclusions.getMany([created[1]!.id])).map((c) => c.id)).toEqual([created[1]!.id])

    await view.delete(created[1]!.id)
    await expect(view.get(created[1]!.id)).rejects.toBeInstanceOf(NotFoundError)
  })

  it('graph facts appear as self-conclusions of the peers whose messages evidence them', async () => {
    const alice = await honcho.peer('user-alice')
    const own = await alice.conclusions.list({ size: 100 })
    const graph = own.items.filter((c) => c.id.startsWith('kg-'))
    expect(graph.length).toBeGreaterThan(0)
    expect(graph.every((c) => c.observerId === 'user-alice' && c.observedId === 'user-alice')).toBe(true)
    expect(await alice.representation()).toContain('## Explicit Observations')
  })

  it('setCard / getCard; context() returns representation and card', async () => {
    const alice = await honcho.peer('user-alice')
    const agent = await honcho.peer('hermes')
    expect(await agent.setCard(['NAME: Alice', 'ROLE: billing lead'], alice)).toEqual([
      'NAME: Alice',
      'ROLE: billing lead',
    ])
    expect(await agent.getCard(alice)).toEqual(['NAME: Alice', 'ROLE: billing lead'])
    expect(await agent.card(alice)).toEqual(['NAME: Alice', 'ROLE: billing lead'])
    const context = await agent.context({ target: alice })
    expect(context.targetId).toBe('user-alice')
    expect(context.peerCard).toEqual(['NAME: Alice', 'ROLE: billing lead'])
    expect(context.representation).toContain('Alice is the billing team lead.')
    const session = await honcho.session('s1')
    const sessionContext = await session.context({ peerTarget: alice, peerPerspective: agent, tokens: 2000 })
    expect(sessionContext.peerCard).toEqual(['NAME: Alice', 'ROLE: billing lead'])
    expect(await session.representation(agent, { target: alice })).toContain(
      'Alice is the billing team lead.',
    )
    const summaries = await session.summaries()
    expect(summaries.id).toBe('s1')
  })
})

describe('SDK contract: scopes', () => {
  it('scope() / getScope / scopes() / addSessions / sessions() / status() / removeSession', async () => {
    const scope = await honcho.scope('work', { metadata: { team: 'billing' } })
    expect(scope.metadata).toEqual({ team: 'billing' })
    expect((await honcho.getScope('work')).id).toBe('work')
    await honcho.session('s2')
    await scope.addSessions(['s1', 's2'])
    expect((await scope.sessions()).items.map((s) => s.id)).toEqual(['s1', 's2'])
    const status = await scope.status()
    expect(Object.keys(status.backfillStatus).sort()).toEqual(['s1', 's2'])
    expect(status.backfillStatus.s1?.state).toBe('completed')
    expect((await honcho.scopes()).items.map((s) => s.id)).toEqual(['work'])
    const scoped = await honcho.search('Postgres', { scope })
    expect(scoped.every((m) => m.sessionId === 's1')).toBe(true)
    await scope.removeSession('s2')
    expect((await scope.sessions()).items.map((s) => s.id)).toEqual(['s1'])
    await expect(honcho.getScope('missing')).rejects.toBeInstanceOf(NotFoundError)
    await expect(scope.addSessions(['no-such-session'])).rejects.toBeInstanceOf(NotFoundError)
  })
})
