import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { insertMessages, openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'

const hitsOnly = { limits: { graph: 0, episodes: 0, procedures: 0, notes: 0 } }
const OFF = { neighbourWeight: 0, sessionWeight: 0, peerMentionBoost: 0 }

describe('message hits rescored in context', () => {
  let t: TestStore
  let s1: number[]
  let s2: number[]

  beforeEach(async () => {
    t = openTestStore()
    s1 = await insertMessages(t.store, 's1', [
      { peerId: 'ann', content: 'Hey Bob, how was the pottery class?' },
      { peerId: 'bob', content: 'Great! I made a bowl in the pottery class.' },
      { peerId: 'ann', content: 'Nice, what colour is it?' },
      { peerId: 'bob', content: 'Blue with white dots.' },
    ])
    s2 = await insertMessages(t.store, 's2', [
      { peerId: 'ann', content: 'I signed up for a pottery class too, Bob.' },
      { peerId: 'bob', content: 'We should go together.' },
    ])
  })
  afterEach(() => t.close())

  it('ranks turns by the peer the query names above turns that only address that peer', async () => {
    const query = 'What did Bob make in pottery class?'
    const plain = await createQueryEngine({ store: t.store, config: OFF }).augment(query, {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(plain.hits[0]?.id).not.toBe(s1[1])
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, peerMentionBoost: 1 } })
    const { hits } = await engine.augment(query, { workspaceId: WS, ...hitsOnly })
    expect(hits[0]).toMatchObject({ kind: 'message', id: s1[1], peerId: 'bob' })
    expect(hits[0]!.whyRetrieved).toContain('author:bob')
  })

  it('adds the adjacent turns of a match, within its session only', async () => {
    const engine = createQueryEngine({
      store: t.store,
      config: { ...OFF, neighbourWeight: 0.3, neighbourSpan: 1 },
    })
    const { hits } = await engine.augment('bowl', { workspaceId: WS, ...hitsOnly })
    expect(hits.map((hit) => hit.id)).toEqual([s1[1], s1[0], s1[2]])
    expect(hits[1]!.whyRetrieved).toEqual([`keyword:messages#2`, `neighbour_of:${s1[1]}`])
    const { hits: edge } = await engine.augment('together', { workspaceId: WS, ...hitsOnly })
    expect(edge.map((hit) => hit.id)).toEqual([s2[1], s2[0]])
  })

  it('reaches neighbourSpan turns on either side', async () => {
    const engine = createQueryEngine({
      store: t.store,
      config: { ...OFF, neighbourWeight: 0.3, neighbourSpan: 2 },
    })
    const { hits } = await engine.augment('dots', { workspaceId: WS, ...hitsOnly })
    // Both earlier turns get the same share; ties keep message order.
    expect(hits.map((hit) => hit.id)).toEqual([s1[3], s1[1], s1[2]])
  })

  it('leaves adjacent turns out when the search is limited to one author', async () => {
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, neighbourWeight: 0.3 } })
    const { hits } = await engine.augment('bowl', { workspaceId: WS, peerId: 'bob', ...hitsOnly })
    expect(hits.map((hit) => hit.id)).toEqual([s1[1]])
  })

  it('lifts the turns of the session that matches best as a whole', async () => {
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, sessionWeight: 1 } })
    const { hits } = await engine.augment('pottery class colour', { workspaceId: WS, ...hitsOnly })
    const sessions = hits.map((hit) => hit.sessionId)
    expect(sessions.slice(0, 3)).toEqual(['s1', 's1', 's1'])
    expect(hits.find((hit) => hit.sessionId === 's2')?.whyRetrieved).toContain('session_context')
  })
})
