import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../test/store-harness'

describe('entity types repository', () => {
  const stores = useTempStores()

  it('returns the recorded types of the entities asked for', async () => {
    const store = stores.open()
    const at = '2026-01-01T00:00:00.000Z'
    await store.db
      .insertInto('entity_types')
      .values([
        { workspace_id: 'w', entity: 'redis', type: 'database', evidence: 2, updated_at: at },
        { workspace_id: 'w', entity: 'flyio', type: 'platform', evidence: 1, updated_at: at },
        { workspace_id: 'other', entity: 'api', type: 'service', evidence: 1, updated_at: at },
      ])
      .execute()
    const types = await store.entityTypes.forEntities('w', ['redis', 'api', 'flyio', 'redis'])
    expect(types.sort((a, b) => a.entity.localeCompare(b.entity))).toEqual([
      { entity: 'flyio', type: 'platform', evidence: 1 },
      { entity: 'redis', type: 'database', evidence: 2 },
    ])
    expect(await store.entityTypes.forEntities('w', [])).toEqual([])
  })
})
