import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('entity types repository', () => {
  const stores = useTempStores()

  it('decides an entity’s type by a running majority vote', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    const typeOf = async () => (await store.entityTypes.listAll('w')).find((t) => t.entity === 'redis')
    await store.entityTypes.vote('w', 'redis', 'database')
    await store.entityTypes.vote('w', 'redis', 'database')
    expect(await typeOf()).toEqual({
      entity: 'redis',
      type: 'database',
      evidence: 2,
      updatedAt: '2026-03-01T10:00:00.000Z',
    })
    advance(1000)
    await store.entityTypes.vote('w', 'redis', 'cache')
    expect(await typeOf()).toMatchObject({
      type: 'database',
      evidence: 1,
      updatedAt: '2026-03-01T10:00:01.000Z',
    })
    await store.entityTypes.vote('w', 'redis', 'cache')
    expect(await typeOf()).toMatchObject({ type: 'cache', evidence: 1 })
    await store.entityTypes.vote('w', 'api', 'service')
    expect(await store.entityTypes.typesOf('w', ['redis', 'api', 'nginx'])).toEqual(
      new Map([
        ['redis', 'cache'],
        ['api', 'service'],
      ]),
    )
    expect(await store.entityTypes.typesOf('w', [])).toEqual(new Map())
    expect(await store.entityTypes.typesOf('other', ['redis'])).toEqual(new Map())
    await expectStoreError(store.entityTypes.vote('w', 'redis', ''), 'INVALID_INPUT')
  })
})
