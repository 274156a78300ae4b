import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('entity types repository', () => {
  const stores = useTempStores()

  it('sets types, looks them up, lists entities of a type best evidenced first, and finds named types', async () => {
    const store = stores.open()
    await store.entityTypes.set('w', { entity: 'uv', type: 'package_manager', evidence: 3 })
    await store.entityTypes.set('w', { entity: 'pip', type: 'package_manager', evidence: 2 })
    await store.entityTypes.set('w', { entity: 'poetry', type: 'package_manager', evidence: 2 })
    await store.entityTypes.set('w', { entity: 'postgres', type: 'tool' })
    await store.entityTypes.set('w', { entity: 'postgres', type: 'database' })
    await store.entityTypes.set('other', { entity: 'npm', type: 'package_manager', evidence: 9 })
    expect(await store.entityTypes.typesOf('w', ['uv', 'postgres', 'nothing'])).toEqual(
      new Map([
        ['uv', 'package_manager'],
        ['postgres', 'database'],
      ]),
    )
    expect(await store.entityTypes.findEntitiesOfType('w', 'package_manager', 10)).toEqual([
      'uv',
      'pip',
      'poetry',
    ])
    expect(await store.entityTypes.findEntitiesOfType('w', 'package_manager', 2)).toEqual(['uv', 'pip'])
    expect(await store.entityTypes.findTypesNamed('w', ['package_manager', 'database', 'tool', 'x'])).toEqual(
      ['database', 'package_manager'],
    )
    expect(await store.entityTypes.findTypesNamed('w', [])).toEqual([])
  })

  it('refuses empty names and bad evidence counts', async () => {
    const store = stores.open()
    await expectStoreError(store.entityTypes.set('w', { entity: '', type: 't' }), 'INVALID_INPUT')
    await expectStoreError(
      store.entityTypes.set('w', { entity: 'e', type: 't', evidence: -1 }),
      'INVALID_INPUT',
    )
    await expectStoreError(store.entityTypes.findEntitiesOfType('w', 't', 1.5), 'INVALID_INPUT')
  })
})
