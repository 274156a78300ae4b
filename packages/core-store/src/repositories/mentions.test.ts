import { describe, expect, it } from 'vitest'
import { seedChunks } from '../../test/graph-seed'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('mentions repository', () => {
  const stores = useTempStores()

  it('records the entities a chunk mentions once, per workspace', async () => {
    const store = stores.open({ clock: manualClock().clock })
    const [a, b] = await seedChunks(store, 'w', ['redis and kafka', 'kafka'])
    expect(await store.mentions.add('w', a!.id, new Set(['redis', 'kafka']))).toBe(2)
    expect(await store.mentions.add('w', a!.id, ['kafka'])).toBe(0)
    expect(await store.mentions.add('w', b!.id, [])).toBe(0)
    expect(await store.mentions.add('w', b!.id, ['kafka'])).toBe(1)
    expect(await store.mentions.listAll('w')).toEqual([
      { chunkId: a!.id, entity: 'kafka' },
      { chunkId: a!.id, entity: 'redis' },
      { chunkId: b!.id, entity: 'kafka' },
    ])
    expect(await store.mentions.listAll('other')).toEqual([])
    await expectStoreError(store.mentions.add('w', a!.id, ['']), 'INVALID_INPUT')
  })
})
