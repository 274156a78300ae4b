import { describe, expect, it } from 'vitest'
import { manualClock, useTempStores } from '../../../test/store-harness'

describe('store.runLock', () => {
  const stores = useTempStores()

  it('is shared through the file: a fork sees the holder, and the store clock drives stale takeover', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock }, 'lock.sqlite')
    const fork = stores.track(store.fork())
    const first = await store.runLock.acquire('dream:w', 'holder-a')
    expect(first.acquired).toBe(true)
    const contender = await fork.runLock.acquire('dream:w', 'holder-b')
    expect(contender).toMatchObject({
      acquired: false,
      holder: { holder: 'holder-a', acquiredAt: '2026-03-01T10:00:00.000Z' },
    })
    advance(5 * 60_000 + 1)
    const takeover = await fork.runLock.acquire('dream:w', 'holder-b')
    expect(takeover.acquired && takeover.lock.tookOver?.reason).toBe('stale')
    expect((await store.runLock.inspect('dream:w'))?.holder).toBe('holder-b')
  })
})
