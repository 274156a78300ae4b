import { describe, expect, it } from 'vitest'
import { addEpisode } from '../../test/fixtures'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('episodes repository', () => {
  const stores = useTempStores()

  it('inserts episodes and reads them back by id, within their workspace only', async () => {
    const store = stores.open({ clock: () => new Date('2026-03-01T10:00:00.000Z') })
    await store.sessions.getOrCreate('w', 's')
    const episode = await store.episodes.insert('w', {
      id: 'ep-1',
      sessionId: 's',
      title: 'Migration',
      summary: 'Moved to postgres',
      outcome: 'done',
      entities: ['postgres'],
      messageIds: [3, 4],
    })
    expect(episode).toMatchObject({
      id: 'ep-1',
      title: 'Migration',
      outcome: 'done',
      entities: ['postgres'],
      chunkIds: [],
      messageIds: [3, 4],
      startedAt: '2026-03-01T10:00:00.000Z',
      endedAt: '2026-03-01T10:00:00.000Z',
    })
    expect(await store.episodes.getByIds('w', ['ep-1', 'missing'])).toEqual([episode])
    expect(await store.episodes.getByIds('other', ['ep-1'])).toEqual([])
    await expectStoreError(
      store.episodes.insert('w', { id: '', sessionId: 's', title: 't', summary: 's' }),
      'INVALID_INPUT',
    )
  })

  it('lists every episode of a workspace by id', async () => {
    const store = stores.open()
    await store.sessions.getOrCreate('w', 's')
    await store.sessions.getOrCreate('x', 's')
    await addEpisode(store, 'w', 'ep-b', 'Billing', 'Moved billing to Postgres.')
    await addEpisode(store, 'w', 'ep-a', 'Deploys', 'Deploys on Fridays.')
    await addEpisode(store, 'x', 'ep-c', 'Other', 'Elsewhere.')
    const episodes = await store.episodes.listAll('w')
    expect(episodes.map((e) => [e.id, e.title, e.summary])).toEqual([
      ['ep-a', 'Deploys', 'Deploys on Fridays.'],
      ['ep-b', 'Billing', 'Moved billing to Postgres.'],
    ])
  })
})
