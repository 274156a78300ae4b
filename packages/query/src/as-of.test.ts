import { afterEach, describe, expect, it } from 'vitest'
import { daysAgo, insertEdge, NOW, openTestStore, type TestStore, WS } from '../test/harness'
import { createQueryEngine } from './engine'

let t: TestStore
afterEach(async () => {
  await t?.close()
})

describe('augment asOf: what HyMem would have returned then', () => {
  it('leaves out facts learned later, messages written later and notes saved later', async () => {
    // Evidence rows take the store clock's time, and a fact is learned when its first supporting one is written.
    let clock = NOW
    t = openTestStore({ clock: () => clock })
    const { store } = t
    const [said] = await store.messages.insertBatch(WS, 's', [
      { peerId: 'ann', content: 'The billing api deploys to heroku.', createdAt: daysAgo(40) },
      { peerId: 'ann', content: 'The billing api moved to fly.', createdAt: daysAgo(5) },
    ])
    clock = new Date(daysAgo(40))
    await insertEdge(store, {
      subject: 'billing_api',
      predicate: 'deploys_to',
      object: 'heroku',
      lastSeen: daysAgo(40),
      validTo: daysAgo(5),
      status: 'stale',
      evidence: [{ messageIds: [said!.id] }],
    })
    // Stated 40 days ago but only learned 10 days ago (a late dream): not known 20 days ago.
    clock = new Date(daysAgo(10))
    await insertEdge(store, {
      subject: 'billing_api',
      predicate: 'uses',
      object: 'postgres',
      lastSeen: daysAgo(40),
      evidence: [{ messageIds: [said!.id] }],
    })
    clock = NOW
    await store.notes.insert(WS, {
      description: 'billing api deploys',
      content: 'deploy on fridays',
      createdAt: daysAgo(30),
    })
    await store.notes.insert(WS, {
      description: 'billing api deploys',
      content: 'deploy on mondays',
      createdAt: daysAgo(2),
    })

    const engine = createQueryEngine({ store })
    const then = await engine.augment('where does the billing api deploy?', {
      workspaceId: WS,
      asOf: daysAgo(20),
    })
    expect(then.graphFacts.map((f) => [f.object, f.learnedAt])).toEqual([['heroku', daysAgo(40)]])
    expect(then.hits.map((h) => h.text)).toEqual(['The billing api deploys to heroku.'])
    expect(then.notes.map((n) => n.content)).toEqual(['deploy on fridays'])
    expect(then.ranked.every((r) => r.kind !== 'note' || r.id === then.notes[0]?.id)).toBe(true)

    const now = await engine.augment('where does the billing api deploy?', { workspaceId: WS })
    expect(now.graphFacts.map((f) => f.object).sort()).toEqual(['postgres'])
    expect(now.hits.map((h) => h.text)).toContain('The billing api moved to fly.')
    expect(now.notes.map((n) => n.content).sort()).toEqual(['deploy on fridays', 'deploy on mondays'])
  })
})
