import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The entity types cases of the store contract, run against every backend. */
export function describeEntityTypesContract(backend: BackendUnderTest) {
  describe('entity types repository', () => {
    const stores = backend.use()

    it('sets types, looks them up, lists entities of a type best evidenced first, and finds named types', async () => {
      const store = await stores.open()
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
      expect(
        await store.entityTypes.findTypesNamed('w', ['package_manager', 'database', 'tool', 'x']),
      ).toEqual(['database', 'package_manager'])
      expect(await store.entityTypes.findTypesNamed('w', [])).toEqual([])
    })

    it('refuses empty names and bad evidence counts', async () => {
      const store = await stores.open()
      await expectStoreError(store.entityTypes.set('w', { entity: '', type: 't' }), 'INVALID_INPUT')
      await expectStoreError(
        store.entityTypes.set('w', { entity: 'e', type: 't', evidence: -1 }),
        'INVALID_INPUT',
      )
      await expectStoreError(store.entityTypes.findEntitiesOfType('w', 't', 1.5), 'INVALID_INPUT')
    })

    it('decides an entity’s type by a running majority vote', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
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
}
