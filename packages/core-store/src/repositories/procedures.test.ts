import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('procedures repository', () => {
  const stores = useTempStores()

  it('upserts a procedure by id and makes its numbered steps searchable', async () => {
    const { clock, advance } = manualClock()
    const store = stores.open({ clock })
    await store.sessions.getOrCreate('w', 's')
    const procedure = {
      id: 'proc_1',
      sessionId: 's',
      name: 'release',
      description: 'How we release',
      triggerPhrase: 'to release',
      steps: [
        { order: 1, text: 'run the migrations', tool: 'psql' },
        { order: 2, text: 'tag the release' },
      ],
      entities: ['git'],
      chunkIds: [1],
      messageIds: [2],
    }
    await store.procedures.upsert('w', procedure)
    advance(1000)
    await store.procedures.upsert('w', { ...procedure, description: 'How we ship' })
    expect(await store.procedures.listAll('w')).toEqual([
      {
        ...procedure,
        workspaceId: 'w',
        description: 'How we ship',
        createdAt: '2026-03-01T10:00:00.000Z',
        updatedAt: '2026-03-01T10:00:01.000Z',
      },
    ])
    const hits = await store.fullText.search('procedures', 'migrations', { workspaceId: 'w', limit: 5 })
    expect(hits.map((h) => h.id)).toEqual(['proc_1'])
    await expectStoreError(
      store.procedures.upsert('w', { ...procedure, steps: [{ order: 1 } as never] }),
      'INVALID_INPUT',
    )
  })
})
