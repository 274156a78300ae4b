import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { addEpisode } from '../fixtures'
import { minute } from '../graph-seed'
import { expectStoreError, manualClock } from '../store-harness'

/** The episodes cases of the store contract, run against every backend. */
export function describeEpisodesContract(backend: BackendUnderTest) {
  describe('episodes repository', () => {
    const stores = backend.use()

    it('inserts episodes and reads them back by id, within their workspace only', async () => {
      const store = await stores.open({ clock: () => new Date('2026-03-01T10:00:00.000Z') })
      await store.sessions.getOrCreate('w', 's')
      const episode = await store.episodes.upsert('w', {
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
        store.episodes.upsert('w', { id: '', sessionId: 's', title: 't', summary: 's' }),
        'INVALID_INPUT',
      )
    })

    it('lists every episode of a workspace by id', async () => {
      const store = await stores.open()
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

    it('upserts an episode by id, keeping its creation time, and deletes by id', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      await store.sessions.getOrCreate('w', 's1')
      await store.sessions.getOrCreate('w', 's2')
      const episode = {
        id: 'ep_1',
        sessionId: 's1',
        title: 'Billing moves',
        summary: 'The billing service moved to Postgres.',
        outcome: 'done',
        entities: ['billing_service', 'postgres'],
        chunkIds: [1, 2],
        messageIds: [3, 4],
        startedAt: minute(0),
        endedAt: minute(5),
      }
      await store.episodes.upsert('w', episode)
      advance(60_000)
      await store.episodes.upsert('w', { ...episode, title: 'Billing moved' })
      await store.episodes.upsert('w', { id: 'ep_2', sessionId: 's2', title: 'Other', summary: 'Other.' })
      expect(await store.episodes.listBySession('w', 's1')).toEqual([
        {
          ...episode,
          workspaceId: 'w',
          title: 'Billing moved',
          createdAt: '2026-03-01T10:00:00.000Z',
          updatedAt: '2026-03-01T10:01:00.000Z',
        },
      ])
      expect((await store.episodes.listAll('w')).find((e) => e.id === 'ep_2')).toMatchObject({
        outcome: null,
        entities: [],
        startedAt: '2026-03-01T10:01:00.000Z',
        endedAt: '2026-03-01T10:01:00.000Z',
      })
      expect(await store.episodes.delete('w', ['ep_1', 'nope'])).toBe(1)
      expect((await store.episodes.listAll('w')).map((e) => e.id)).toEqual(['ep_2'])
      await expectStoreError(
        store.episodes.upsert('w', { ...episode, chunkIds: ['x' as never] }),
        'INVALID_INPUT',
      )
    })
  })
}
