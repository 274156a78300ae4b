import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../test/store-harness'

describe('dream runs repository', () => {
  const stores = useTempStores()

  it('lists the runs still marked running', async () => {
    const store = stores.open()
    const first = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
    const done = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
    await store.dreamRuns.finish('w', done, { status: 'ok' })
    await store.dreamRuns.start('other', { extractor: 'x', promptVersion: 'v1' })
    expect((await store.dreamRuns.listRunning('w')).map((r) => [r.id, r.status])).toEqual([
      [first, 'running'],
    ])
  })
})
