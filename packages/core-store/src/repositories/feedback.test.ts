import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('feedback repository', () => {
  const stores = useTempStores()

  it('records retracted triples and gives the most recent first', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    const triple = (object: string) => ({ subject: 'api', predicate: 'uses', object })
    await store.feedback.record('w', { ...triple('mysql'), chunkText: 'we use mysql', reason: 'wrong' })
    advance(1000)
    await store.feedback.record('w', { ...triple('redis'), chunkText: null, reason: null })
    await store.feedback.record('w', { ...triple('kafka'), chunkText: null, reason: 'old' })
    const all = await store.feedback.recent('w')
    expect(all.map((f) => f.object)).toEqual(['kafka', 'redis', 'mysql'])
    expect(all[2]).toMatchObject({
      chunkText: 'we use mysql',
      reason: 'wrong',
      createdAt: '2026-03-01T10:00:00.000Z',
    })
    expect((await store.feedback.recent('w', 1)).map((f) => f.object)).toEqual(['kafka'])
    expect(await store.feedback.recent('w', 0)).toEqual([])
    expect(await store.feedback.recent('other')).toEqual([])
    await expectStoreError(store.feedback.recent('w', -1), 'INVALID_INPUT')
    await expectStoreError(
      store.feedback.record('w', { ...triple(''), chunkText: null, reason: null }),
      'INVALID_INPUT',
    )
  })
})
