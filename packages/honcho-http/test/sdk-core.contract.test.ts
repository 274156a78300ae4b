import { ConflictError, type Honcho, NotFoundError, UnprocessableEntityError } from '@honcho-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer } from './live'

let live: LiveServer
let honcho: Honcho

beforeAll(async () => {
  live = await startLiveServer()
  honcho = live.client('core')
})
afterAll(async () => {
  await live.stop()
})

describe('SDK contract: workspaces', () => {
  it('getMetadata / setMetadata / getConfiguration / setConfiguration / refresh', async () => {
    expect(await honcho.getMetadata()).toEqual({})
    await honcho.setMetadata({ team: 'hymem' })
    expect(await honcho.getMetadata()).toEqual({ team: 'hymem' })
    await honcho.setConfiguration({ reasoning: { enabled: false } })
    await honcho.setConfiguration({ dream: { enabled: true } })
    expect(await honcho.getConfiguration()).toEqual({
      reasoning: { enabled: false },
      dream: { enabled: true },
    })
    await honcho.refresh()
    expect(honcho.metadata).toEqual({ team: 'hymem' })
  })

  it('workspaces() lists ids with pagination; deleteWorkspace() removes an idle one', async () => {
    await live.client('other-a').getMetadata()
    await live.client('other-b').getMetadata()
    const page = await honcho.workspaces({ size: 2 })
    expect(page.total).toBeGreaterThanOrEqual(3)
    const all = await page.toArray()
    expect(all).toEqual(expect.arrayContaining(['core', 'other-a', 'other-b']))
    await honcho.deleteWorkspace('other-b')
    expect(await (await honcho.workspaces()).toArray()).not.toContain('other-b')
    await expect(honcho.deleteWorkspace('never-existed')).rejects.toBeInstanceOf(NotFoundError)
  })
})

describe('SDK contract: peers and sessions', () => {
  it('peer() get-or-creates; metadata and configuration round-trip; peers() paginates', async () => {
    const alice = await honcho.peer('alice', { metadata: { name: 'Alice' } })
    expect(await alice.getMetadata()).toEqual({ name: 'Alice' })
    await alice.setMetadata({ name: 'Alice L.' })
    await alice.setConfiguration({ observeMe: false })
    expect(await alice.getConfiguration()).toEqual({ observeMe: false })
    await alice.refresh()
    expect(alice.metadata).toEqual({ name: 'Alice L.' })
    await honcho.peer('bob')
    await honcho.peer('carol')
    const first = await honcho.peers({ size: 2 })
    expect(first.items.map((p) => p.id)).toEqual(['alice', 'bob'])
    expect(first.hasNextPage).toBe(true)
    const second = await first.getNextPage()
    expect(second?.items.map((p) => p.id)).toEqual(['carol'])
    const filtered = await honcho.peers({ filters: { metadata: { name: 'Alice L.' } } })
    expect(filtered.items.map((p) => p.id)).toEqual(['alice'])
  })

  it('session() with peers; addPeers / setPeers / removePeers / peers(); peer configs', async () => {
    const session = await honcho.session('planning', { metadata: { kind: 'work' }, peers: ['alice'] })
    expect(session.isActive).toBe(true)
    await session.addPeers(['bob', 'carol'])
    expect((await session.peers()).map((p) => p.id)).toEqual(['alice', 'bob', 'carol'])
    await session.removePeers(['carol'])
    expect((await session.peers()).map((p) => p.id)).toEqual(['alice', 'bob'])
    await session.setPeers(['alice'])
    expect((await session.peers()).map((p) => p.id)).toEqual(['alice'])
    await session.setPeerConfiguration('alice', { observeOthers: true, observeMe: false })
    expect(await session.getPeerConfiguration('alice')).toEqual({ observeOthers: true, observeMe: false })
    await expect(session.getPeerConfiguration('nobody')).rejects.toBeInstanceOf(NotFoundError)
    await session.setMetadata({ kind: 'work', n: 2 })
    expect(await session.getMetadata()).toEqual({ kind: 'work', n: 2 })
    await session.setConfiguration({ summary: { enabled: true } })
    expect(await session.getConfiguration()).toEqual({ summary: { enabled: true } })
    await session.refresh()
    const alice = await honcho.peer('alice')
    expect((await alice.sessions()).items.map((s) => s.id)).toEqual(['planning'])
  })

  it('sessions() lists active sessions; delete() hides them and a deleted session is 404', async () => {
    const doomed = await honcho.session('doomed')
    expect((await honcho.sessions()).items.map((s) => s.id)).toContain('doomed')
    await doomed.delete()
    expect((await honcho.sessions()).items.map((s) => s.id)).not.toContain('doomed')
    await expect(honcho.session('doomed')).rejects.toBeInstanceOf(NotFoundError)
  })
})

describe('SDK contract: messages, context, search', () => {
  it('addMessages / messages() / getMessage / updateMessage / clone / uploadFile', async () => {
    const session = await honcho.session('chat')
    const alice = await honcho.peer('alice')
    const hermes = await honcho.peer('hermes-agent')
    const added = await session.addMessages([
      alice.message('We switched from MySQL to Postgres last year.'),
      hermes.message('Noted: your team uses Postgres now.', { metadata: { source: 'agent' } }),
      alice.message('The backend runs on Kubernetes.', { createdAt: '2024-05-01T12:00:00Z' }),
    ])
    expect(added.map((m) => m.peerId)).toEqual(['alice', 'hermes-agent', 'alice'])
    expect(added[2]?.createdAt).toBe('2024-05-01T12:00:00.000Z')
    expect(added[0]?.tokenCount).toBeGreaterThan(5)

    const page = await session.messages({ size: 2 })
    expect(page.total).toBe(3)
    expect(page.pages).toBe(2)
    expect((await page.toArray()).map((m) => m.id)).toEqual(added.map((m) => m.id))
    const newest = await session.messages({ reverse: true, size: 1 })
    expect(newest.items[0]?.id).toBe(added[2]?.id)
    const bySource = await session.messages({ filters: { metadata: { source: 'agent' } } })
    expect(bySource.items.map((m) => m.id)).toEqual([added[1]?.id])

    const one = await session.getMessage(added[0]!.id)
    expect(one.content).toBe('We switched from MySQL to Postgres last year.')
    const updated = await session.updateMessage(one, { pinned: true })
    expect(updated.metadata).toEqual({ pinned: true })

    const clone = await session.clone(added[1]!.id)
    expect(clone.id).not.toBe('chat')
    expect((await clone.messages()).items.map((m) => m.content)).toEqual([
      'We switched from MySQL to Postgres last year.',
      'Noted: your team uses Postgres now.',
    ])

    const uploaded = await session.uploadFile(
      {
        filename: 'notes.md',
        content: new TextEncoder().encode('# Notes\n\nAlice prefers pnpm.'),
        content_type: 'text/markdown',
      },
      alice,
    )
    expect(uploaded.map((m) => m.content)).toEqual(['# Notes\n\nAlice prefers pnpm.'])
  })

  it('context() returns messages within the token budget, oldest first', async () => {
    const session = await honcho.session('chat')
    const full = await session.context()
    expect(full.messages.map((m) => m.content).at(-1)).toBe('# Notes\n\nAlice prefers pnpm.')
    const lastTokens = full.messages.at(-1)!.tokenCount
    const tight = await session.context({ tokens: lastTokens, summary: false })
    expect(tight.messages).toHaveLength(1)
    const withPeer = await session.context({ peerTarget: 'alice', summary: true })
    expect(withPeer.peerRepresentation).toBe('')
    expect(withPeer.toOpenAI('hermes-agent').length).toBeGreaterThan(0)
    // The SDK refuses peerPerspective without peerTarget itself; the server does too.
    const raw = await fetch(`${live.baseURL}/v3/workspaces/core/sessions/chat/context?peer_perspective=alice`)
    expect(raw.status).toBe(422)
    expect(await raw.json()).toEqual({ detail: 'peer_perspective requires peer_target' })
  })

  it('search() on workspace, session and peer, with filters; results carry reason codes', async () => {
    const hits = await honcho.search('Postgres')
    expect(hits.length).toBeGreaterThan(0)
    // augment may add neighbouring turns as context; keyword matches rank first
    expect(hits[0]?.content).toContain('Postgres')
    const withPostgres = hits.filter((m) => m.content.includes('Postgres')).length
    expect(hits.slice(0, withPostgres).every((m) => m.content.includes('Postgres'))).toBe(true)
    expect(hits[0]?.metadata.hymem).toMatchObject({ why: expect.arrayContaining([expect.any(String)]) })
    const session = await honcho.session('chat')
    const sessionHits = await session.search('Postgres', { filters: { peer_id: 'alice' }, limit: 5 })
    expect(sessionHits.every((m) => m.peerId === 'alice')).toBe(true)
    expect(sessionHits[0]?.content).toBe('We switched from MySQL to Postgres last year.')
    const alice = await honcho.peer('alice')
    expect((await alice.search('Kubernetes')).map((m) => m.content)).toEqual([
      'The backend runs on Kubernetes.',
    ])
    await expect(honcho.search('x', { filters: { bogus: 1 } })).rejects.toBeInstanceOf(
      UnprocessableEntityError,
    )
  })
})

describe('SDK contract: errors', () => {
  it('maps 404, 409 and 422 to the SDK error classes', async () => {
    const session = await honcho.session('chat')
    await expect(session.getMessage('nope')).rejects.toBeInstanceOf(NotFoundError)
    const busy = live.client('busy')
    await busy.session('open')
    await expect(honcho.deleteWorkspace('busy')).rejects.toBeInstanceOf(ConflictError)
    await expect(honcho.sessions({ filters: { created_at: { gte: 'not a date' } } })).rejects.toBeInstanceOf(
      UnprocessableEntityError,
    )
  })
})
