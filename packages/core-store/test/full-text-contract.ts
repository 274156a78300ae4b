import { describe, expect, it } from 'vitest'
import { builderOf } from '../src/store/builder'
import type { BackendUnderTest } from './backends'
import { addChunk, addEpisode, addNote, addProcedure } from './fixtures'
import { describeMultilingualContract } from './multilingual-contract'
import { expectStoreError } from './store-harness'

/** The FullTextSearch contract, run against every backend. */
export function describeFullTextContract(backend: BackendUnderTest) {
  describeMultilingualContract(backend)
  describe(`FullTextSearch contract: ${backend.label}`, () => {
    const stores = backend.use()
    const open = () => stores.open()

    it('ranks messages by relevance, best first, scoped to the workspace', async () => {
      const store = await open()
      const [dense, sparse, unrelated] = await store.messages.insertBatch('w', 's', [
        { peerId: 'user-a', content: 'Postgres replication: postgres primary, postgres replica' },
        {
          peerId: 'user-a',
          content: 'We might move the reporting job to Postgres one day, maybe, after the migration',
        },
        { peerId: 'user-a', content: 'Lunch was great' },
      ])
      await store.messages.insertBatch('other', 's', [
        { peerId: 'user-a', content: 'Postgres postgres postgres' },
      ])
      const hits = await store.fullText.search('messages', 'postgres', {
        workspaceId: 'w',
        limit: 10,
      })
      expect(hits.map((h) => h.id)).toEqual([dense?.id, sparse?.id])
      expect(hits[0]!.score).toBeGreaterThan(hits[1]!.score)
      expect(hits.map((h) => h.id)).not.toContain(unrelated?.id)
      const limited = await store.fullText.search('messages', 'postgres', {
        workspaceId: 'w',
        limit: 1,
      })
      expect(limited.map((h) => h.id)).toEqual([dense?.id])
    })

    it('stems, folds accents, and filters by sessions and author', async () => {
      const store = await open()
      const [a] = await store.messages.insertBatch('w', 's1', [
        { peerId: 'user-a', content: 'She was running the café benchmarks' },
      ])
      const [b] = await store.messages.insertBatch('w', 's2', [
        { peerId: 'hermes', content: 'I run benchmarks nightly at the cafe' },
      ])
      const both = await store.fullText.search('messages', 'runs cafe', {
        workspaceId: 'w',
        limit: 5,
      })
      expect(both.map((h) => h.id).sort()).toEqual([a?.id, b?.id].sort())
      const inS2 = await store.fullText.search('messages', 'benchmark', {
        workspaceId: 'w',
        limit: 5,
        sessionIds: ['s2'],
      })
      expect(inS2.map((h) => h.id)).toEqual([b?.id])
      const byAuthor = await store.fullText.search('messages', 'benchmark', {
        workspaceId: 'w',
        limit: 5,
        peerId: 'user-a',
      })
      expect(byAuthor.map((h) => h.id)).toEqual([a?.id])
      expect(
        await store.fullText.search('messages', 'benchmark', {
          workspaceId: 'w',
          limit: 5,
          sessionIds: [],
        }),
      ).toEqual([])
    })

    it('follows edits and deletes of the content rows', async () => {
      const store = await open()
      const [m] = await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'original wording' }])
      await builderOf(store)
        .updateTable('messages')
        .set({ content: 'revised phrasing' })
        .where('id', '=', m!.id)
        .execute()
      expect(await store.fullText.search('messages', 'original', { workspaceId: 'w', limit: 5 })).toEqual([])
      expect(
        (await store.fullText.search('messages', 'revised', { workspaceId: 'w', limit: 5 })).map((h) => h.id),
      ).toEqual([m?.id])
      await builderOf(store).deleteFrom('messages').where('id', '=', m!.id).execute()
      expect(await store.fullText.search('messages', 'revised', { workspaceId: 'w', limit: 5 })).toEqual([])
    })

    it('searches chunks, episodes, procedures and notes, returning their own ids', async () => {
      const store = await open()
      const chunk = await addChunk(store, 'w', 'The deploy pipeline uses Kubernetes')
      await addChunk(store, 'w', 'Unrelated chatter')
      await addEpisode(store, 'w', 'ep-1', 'Kubernetes migration', 'Moved services to the cluster')
      await addProcedure(store, 'w', 'proc-1', 'deploy', 'build image; push; kubectl apply to kubernetes')
      await addNote(store, 'w', 'note-1', 'infra', 'Runs everything on Kubernetes', 's')
      const match = 'kubernetes'
      const query = { workspaceId: 'w', limit: 5 }
      expect((await store.fullText.search('chunks', match, query)).map((h) => h.id)).toEqual([chunk])
      expect((await store.fullText.search('episodes', match, query)).map((h) => h.id)).toEqual(['ep-1'])
      expect((await store.fullText.search('procedures', match, query)).map((h) => h.id)).toEqual(['proc-1'])
      expect((await store.fullText.search('notes', match, query)).map((h) => h.id)).toEqual(['note-1'])
      expect(await store.fullText.search('notes', match, { ...query, sessionIds: ['elsewhere'] })).toEqual([])
      expect(await store.fullText.search('episodes', match, { workspaceId: 'other', limit: 5 })).toEqual([])
    })

    it('returns nothing for empty text and searches hostile text as plain words', async () => {
      const store = await open()
      await store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'anything' }])
      expect(await store.fullText.search('messages', '', { workspaceId: 'w', limit: 5 })).toEqual([])
      expect(await store.fullText.search('messages', '   ', { workspaceId: 'w', limit: 5 })).toEqual([])
      for (const hostile of ['"unbalanced', 'NEAR(', 'a AND', '(((', 'col:thing', '* -', 'anything"']) {
        await expect(
          store.fullText.search('messages', hostile, { workspaceId: 'w', limit: 5 }),
        ).resolves.toBeInstanceOf(Array)
      }
      expect(
        (await store.fullText.search('messages', '"anything" OR (', { workspaceId: 'w', limit: 5 })).length,
      ).toBe(1)
    })

    it('refuses a missing workspace, a bad limit and a peer filter outside messages', async () => {
      const store = await open()
      await expectStoreError(
        store.fullText.search('messages', 'x', { workspaceId: '', limit: 5 }),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.fullText.search('messages', 'x', { workspaceId: 'w', limit: 0 }),
        'INVALID_INPUT',
      )
      await expectStoreError(
        store.fullText.search('chunks', 'x', { workspaceId: 'w', limit: 5, peerId: 'p' }),
        'INVALID_INPUT',
      )
    })

    it('scores relative to the best hit: the best scores 1, the rest keep their proportion in (0, 1]', async () => {
      const store = await open()
      await store.messages.insertBatch('w', 's', [
        { peerId: 'u', content: 'postgres postgres postgres replica' },
        {
          peerId: 'u',
          content: 'we might move the long reporting job to postgres one day, after the migration',
        },
        { peerId: 'u', content: 'postgres again' },
      ])
      const hits = await store.fullText.search('messages', 'postgres', { workspaceId: 'w', limit: 10 })
      expect(hits).toHaveLength(3)
      expect(hits[0]!.score).toBe(1)
      for (const hit of hits.slice(1)) {
        expect(hit.score).toBeGreaterThan(0)
        expect(hit.score).toBeLessThanOrEqual(1)
      }
      const limited = await store.fullText.search('messages', 'postgres', { workspaceId: 'w', limit: 2 })
      expect(limited.map((hit) => hit.score)).toEqual(hits.slice(0, 2).map((hit) => hit.score))
    })
  })
}
