import { describe, expect, it } from 'vitest'
import type { PeerRole } from '../src/kernel/tables'
import type { NewMessage } from '../src/repositories/types'
import type { BackendUnderTest } from './backends'
import { addChunk, vec } from './fixtures'
import { expectStoreError, manualClock, sequentialIds } from './store-harness'

const bad = <T>(value: unknown) => value as T

/**
 * The repositories every store carries (workspaces, peers, sessions, messages, dream runs), run against
 * every backend: the same calls must give the same domain objects on SQLite and PostgreSQL.
 */
export function describeRepositoriesContract(backend: BackendUnderTest) {
  describe(`repositories contract: ${backend.label}`, () => {
    const stores = backend.use()

    describe('workspaces repository', () => {
      it('getOrCreate creates once and then returns the stored workspace unchanged', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        const first = await store.workspaces.getOrCreate('w1', {
          metadata: { team: 'a' },
          configuration: { x: 1 },
        })
        advance(1000)
        const second = await store.workspaces.getOrCreate('w1', { metadata: { team: 'b' } })
        expect(first).toEqual({
          created: true,
          value: {
            id: 'w1',
            metadata: { team: 'a' },
            configuration: { x: 1 },
            createdAt: '2026-03-01T10:00:00.000Z',
          },
        })
        expect(second).toEqual({ created: false, value: first.value })
        expect(await store.workspaces.get('missing')).toBeNull()
      })

      it('update replaces metadata, shallow-merges configuration, and creates when missing', async () => {
        const store = await stores.open()
        await store.workspaces.getOrCreate('w', {
          metadata: { a: 1 },
          configuration: { keep: true, deep: { x: 1 } },
        })
        const updated = await store.workspaces.update('w', {
          metadata: { b: 2 },
          configuration: { deep: { y: 2 } },
        })
        expect(updated.metadata).toEqual({ b: 2 })
        expect(updated.configuration).toEqual({ keep: true, deep: { y: 2 } })
        const onlyConfig = await store.workspaces.update('w', { configuration: { more: 1 } })
        expect(onlyConfig.metadata).toEqual({ b: 2 })
        const created = await store.workspaces.update('fresh', { metadata: { n: 1 } })
        expect(created).toMatchObject({ id: 'fresh', metadata: { n: 1 }, configuration: {} })
      })

      it('lists with the pagination envelope, oldest first unless reversed', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        for (const id of ['a', 'b', 'c', 'd', 'e']) {
          await store.workspaces.getOrCreate(id)
          advance(1)
        }
        const page = await store.workspaces.list({ page: 2, size: 2 })
        expect(page.items.map((w) => w.id)).toEqual(['c', 'd'])
        expect(page).toMatchObject({ total: 5, page: 2, size: 2, pages: 3 })
        const reversed = await store.workspaces.list({ size: 2, reverse: true })
        expect(reversed.items.map((w) => w.id)).toEqual(['e', 'd'])
        const beyond = await store.workspaces.list({ page: 9, size: 2 })
        expect(beyond).toMatchObject({ items: [], total: 5, pages: 3 })
        await expectStoreError(store.workspaces.list({ page: 0 }), 'INVALID_INPUT')
        await expectStoreError(store.workspaces.list({ size: 1.5 }), 'INVALID_INPUT')
      })

      it('delete removes the workspace and everything scoped to it, leaving others alone', async () => {
        const store = await stores.open()
        for (const w of ['gone', 'kept']) {
          await store.messages.insertBatch(w, 's', [{ peerId: 'user-1', content: `hello from ${w}` }])
          await store.dreamRuns.recordSkip(w, 'locked')
        }
        expect(await store.workspaces.delete('gone')).toBe(true)
        expect(await store.workspaces.delete('gone')).toBe(false)
        expect(await store.workspaces.get('gone')).toBeNull()
        expect(await store.messages.count('gone')).toBe(0)
        expect(await store.peers.get('gone', 'user-1')).toBeNull()
        expect(await store.dreamRuns.recent('gone')).toEqual([])
        expect(await store.messages.count('kept')).toBe(1)
        expect(
          await store.fullText.search('messages', 'hello', { workspaceId: 'kept', limit: 5 }),
        ).toHaveLength(1)
        expect(await store.fullText.search('messages', 'hello', { workspaceId: 'gone', limit: 5 })).toEqual(
          [],
        )
      })

      it('delete also drops the workspace from the vector indexes', async () => {
        const store = await stores.open()
        const mine = await addChunk(store, 'gone', 'a')
        const theirs = await addChunk(store, 'kept', 'b')
        const row = (id: number, workspaceId: string) => ({
          id,
          workspaceId,
          vector: vec(1, 0, 0),
          textHash: 'h',
        })
        await store.vectors.upsert('chunks', [row(mine, 'gone'), row(theirs, 'kept')], 'm')
        await store.workspaces.delete('gone')
        expect(await store.vectors.textHashes('chunks', 'gone', [mine, theirs])).toEqual(new Map())
        expect(await store.vectors.textHashes('chunks', 'kept', [mine, theirs])).toEqual(
          new Map([[theirs, 'h']]),
        )
        expect(
          await store.vectors.nearest('chunks', vec(1, 0, 0), { workspaceId: 'gone', k: 5, model: 'm' }),
        ).toEqual([])
        expect(
          (
            await store.vectors.nearest('chunks', vec(1, 0, 0), { workspaceId: 'kept', k: 5, model: 'm' })
          ).map((h) => h.id),
        ).toEqual([theirs])
      })

      it('refuses empty ids and non-object metadata before writing', async () => {
        const store = await stores.open()
        await expectStoreError(store.workspaces.getOrCreate(''), 'INVALID_INPUT')
        await expectStoreError(
          store.workspaces.getOrCreate('w', { metadata: [1, 2] as unknown as Record<string, unknown> }),
          'INVALID_INPUT',
        )
        await expectStoreError(
          store.workspaces.update('w', { configuration: 'x' as unknown as Record<string, unknown> }),
          'INVALID_INPUT',
        )
        expect((await store.workspaces.list()).total).toBe(0)
      })
    })

    describe('peers repository', () => {
      it('getOrCreate infers the role from the id, keeps an explicit one, and creates the workspace', async () => {
        const { clock } = manualClock()
        const store = await stores.open({ clock })
        const bot = await store.peers.getOrCreate('w', 'hermes')
        expect(bot).toEqual({
          created: true,
          value: {
            workspaceId: 'w',
            id: 'hermes',
            role: 'assistant',
            metadata: {},
            configuration: {},
            createdAt: '2026-03-01T10:00:00.000Z',
          },
        })
        const explicit = await store.peers.getOrCreate('w', 'hermes-relay', {
          role: 'user',
          metadata: { n: 1 },
        })
        expect(explicit.value).toMatchObject({ role: 'user', metadata: { n: 1 } })
        expect((await store.peers.getOrCreate('w', 'hermes', { role: 'user' })).created).toBe(false)
        expect((await store.peers.get('w', 'hermes'))?.role).toBe('assistant')
        expect((await store.workspaces.get('w'))?.id).toBe('w')
        expect(await store.peers.get('w', 'nobody')).toBeNull()
      })

      it('update replaces metadata and configuration wholesale and creates missing peers', async () => {
        const store = await stores.open()
        await store.peers.getOrCreate('w', 'p', { metadata: { a: 1 }, configuration: { x: 1, y: 2 } })
        const updated = await store.peers.update('w', 'p', { configuration: { z: 3 } })
        expect(updated).toMatchObject({ metadata: { a: 1 }, configuration: { z: 3 } })
        const created = await store.peers.update('w', 'new-peer', { metadata: { m: true } })
        expect(created).toMatchObject({ id: 'new-peer', role: 'user', metadata: { m: true } })
      })

      it('lists per workspace with pagination', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        for (const id of ['a', 'b', 'c']) {
          await store.peers.getOrCreate('w', id)
          advance(5)
        }
        await store.peers.getOrCreate('other', 'z')
        const page = await store.peers.list('w', { size: 2 })
        expect(page.items.map((p) => p.id)).toEqual(['a', 'b'])
        expect(page).toMatchObject({ total: 3, page: 1, size: 2, pages: 2 })
        expect((await store.peers.list('w', { reverse: true })).items.map((p) => p.id)).toEqual([
          'c',
          'b',
          'a',
        ])
      })

      it('refuses empty ids, unknown roles and non-object metadata', async () => {
        const store = await stores.open()
        await expectStoreError(store.peers.getOrCreate('', 'p'), 'INVALID_INPUT')
        await expectStoreError(store.peers.getOrCreate('w', ''), 'INVALID_INPUT')
        await expectStoreError(
          store.peers.getOrCreate('w', 'p', { role: 'robot' as PeerRole }),
          'INVALID_INPUT',
        )
        await expectStoreError(
          store.peers.update('w', 'p', { metadata: null as unknown as Record<string, unknown> }),
          'INVALID_INPUT',
        )
        expect(await store.workspaces.get('w')).toBeNull()
      })
    })

    describe('sessions repository', () => {
      it('getOrCreate creates once with its metadata and configuration', async () => {
        const { clock } = manualClock()
        const store = await stores.open({ clock })
        const created = await store.sessions.getOrCreate('w', 's', {
          metadata: { topic: 'db' },
          configuration: { a: 1 },
        })
        expect(created).toEqual({
          created: true,
          value: {
            workspaceId: 'w',
            id: 's',
            isActive: true,
            metadata: { topic: 'db' },
            configuration: { a: 1 },
            summary: null,
            summaryMessageId: null,
            summaryUpdatedAt: null,
            startedAt: '2026-03-01T10:00:00.000Z',
            endedAt: null,
            createdAt: '2026-03-01T10:00:00.000Z',
          },
        })
        expect(await store.sessions.getOrCreate('w', 's', { metadata: { other: 1 } })).toEqual({
          created: false,
          value: created.value,
        })
      })

      it('update replaces metadata and merges configuration; setActive and setSummary persist', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        await store.sessions.getOrCreate('w', 's', { configuration: { a: 1 } })
        const updated = await store.sessions.update('w', 's', { metadata: { m: 1 }, configuration: { b: 2 } })
        expect(updated).toMatchObject({ metadata: { m: 1 }, configuration: { a: 1, b: 2 } })
        advance(60_000)
        await store.sessions.setSummary('w', 's', { text: 'They chose Postgres.', messageId: 7 })
        await store.sessions.setActive('w', 's', false)
        expect(await store.sessions.get('w', 's')).toMatchObject({
          isActive: false,
          summary: 'They chose Postgres.',
          summaryMessageId: 7,
          summaryUpdatedAt: '2026-03-01T10:01:00.000Z',
          endedAt: '2026-03-01T10:01:00.000Z',
        })
        await store.sessions.setActive('w', 's', true)
        expect(await store.sessions.get('w', 's')).toMatchObject({ isActive: true, endedAt: null })
        await expectStoreError(store.sessions.setActive('w', 'missing', false), 'NOT_FOUND')
        await expectStoreError(
          store.sessions.setSummary('w', 'missing', { text: 'x', messageId: 1 }),
          'NOT_FOUND',
        )
      })

      it('lists active sessions only, oldest first, with pagination', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        for (const id of ['s1', 's2', 's3', 's4']) {
          await store.sessions.getOrCreate('w', id)
          advance(1000)
        }
        await store.sessions.setActive('w', 's2', false)
        const page = await store.sessions.list('w', { size: 2 })
        expect(page.items.map((s) => s.id)).toEqual(['s1', 's3'])
        expect(page).toMatchObject({ total: 3, pages: 2 })
        expect((await store.sessions.list('w', { reverse: true })).items.map((s) => s.id)).toEqual([
          's4',
          's3',
          's1',
        ])
      })

      it('manages membership: add, re-join keeps configuration, remove, per-peer configuration', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        await store.sessions.addPeers('w', 's', [
          { peerId: 'alice', configuration: { observe_me: false } },
          { peerId: 'hermes' },
        ])
        expect((await store.peers.get('w', 'hermes'))?.role).toBe('assistant')
        advance(1000)
        await store.sessions.removePeers('w', 's', ['alice'])
        expect((await store.sessions.listPeers('w', 's')).map((p) => p.peerId)).toEqual(['hermes'])
        expect((await store.sessions.getPeer('w', 's', 'alice'))?.leftAt).toBe('2026-03-01T10:00:01.000Z')
        advance(1000)
        await store.sessions.addPeers('w', 's', [{ peerId: 'alice' }])
        const alice = await store.sessions.getPeer('w', 's', 'alice')
        expect(alice).toEqual({
          workspaceId: 'w',
          sessionId: 's',
          peerId: 'alice',
          configuration: { observe_me: false },
          joinedAt: '2026-03-01T10:00:02.000Z',
          leftAt: null,
        })
        await store.sessions.setPeerConfiguration('w', 's', 'alice', { observe_others: true })
        expect((await store.sessions.getPeer('w', 's', 'alice'))?.configuration).toEqual({
          observe_me: false,
          observe_others: true,
        })
        await store.sessions.setPeerConfiguration('w', 's', 'bob', { observe_me: true })
        expect((await store.sessions.listPeers('w', 's')).map((p) => p.peerId)).toEqual([
          'hermes',
          'alice',
          'bob',
        ])
        expect(await store.sessions.getPeer('w', 's', 'nobody')).toBeNull()
      })

      it('refuses empty ids and non-object configuration before writing', async () => {
        const store = await stores.open()
        await expectStoreError(store.sessions.getOrCreate('w', ''), 'INVALID_INPUT')
        await expectStoreError(store.sessions.addPeers('w', 's', [{ peerId: '' }]), 'INVALID_INPUT')
        await expectStoreError(
          store.sessions.setPeerConfiguration('w', 's', 'p', 3 as unknown as Record<string, unknown>),
          'INVALID_INPUT',
        )
        expect(await store.workspaces.get('w')).toBeNull()
      })
    })

    describe('messages repository', () => {
      it('insertBatch creates workspace, session, peers and membership, inferring roles', async () => {
        const { clock } = manualClock()
        const store = await stores.open({ clock, newId: sequentialIds('m') })
        const inserted = await store.messages.insertBatch('w', 's1', [
          { peerId: 'user-alice', content: 'I moved the API to Postgres', metadata: { channel: 'cli' } },
          { peerId: 'hermes', content: 'Noted: Postgres it is.' },
          { peerId: 'carol', content: 'tool output', role: 'tool', tokenCount: 3 },
        ])
        expect(inserted).toEqual([
          {
            id: 1,
            publicId: 'm-1',
            workspaceId: 'w',
            sessionId: 's1',
            peerId: 'user-alice',
            role: 'user',
            content: 'I moved the API to Postgres',
            metadata: { channel: 'cli' },
            tokenCount: 7,
            createdAt: '2026-03-01T10:00:00.000Z',
          },
          expect.objectContaining({ id: 2, publicId: 'm-2', peerId: 'hermes', role: 'assistant' }),
          expect.objectContaining({ id: 3, publicId: 'm-3', peerId: 'carol', role: 'tool', tokenCount: 3 }),
        ])
        expect((await store.workspaces.get('w'))?.id).toBe('w')
        expect((await store.sessions.get('w', 's1'))?.isActive).toBe(true)
        expect((await store.peers.get('w', 'hermes'))?.role).toBe('assistant')
        expect((await store.peers.get('w', 'carol'))?.role).toBe('tool')
        expect((await store.sessions.listPeers('w', 's1')).map((p) => p.peerId)).toEqual([
          'user-alice',
          'hermes',
          'carol',
        ])
        const page = await store.messages.listBySession('w', 's1')
        expect(page.items).toEqual(inserted)
      })

      it('takes the role from an existing peer, and an explicit role wins', async () => {
        const store = await stores.open()
        await store.peers.getOrCreate('w', 'alice', { role: 'assistant' })
        const [implied, explicit] = await store.messages.insertBatch('w', 's', [
          { peerId: 'alice', content: 'a' },
          { peerId: 'alice', content: 'b', role: 'system' },
        ])
        expect(implied?.role).toBe('assistant')
        expect(explicit?.role).toBe('system')
        expect((await store.peers.get('w', 'alice'))?.role).toBe('assistant')
      })

      it('writes batches larger than one INSERT chunk in order with consecutive ids', async () => {
        const store = await stores.open()
        const batch: NewMessage[] = Array.from({ length: 257 }, (_, i) => ({
          peerId: 'user-1',
          content: `message ${i}`,
        }))
        const inserted = await store.messages.insertBatch('w', 's', batch)
        expect(inserted.map((m) => m.id)).toEqual(Array.from({ length: 257 }, (_, i) => i + 1))
        const stored = await store.messages.listAfter('w', 's', 0, 1000)
        expect(stored.map((m) => [m.id, m.content, m.publicId])).toEqual(
          inserted.map((m) => [m.id, m.content, m.publicId]),
        )
      })

      it('keeps given creation times (normalised to UTC ISO) for backfills', async () => {
        const store = await stores.open()
        const [m] = await store.messages.insertBatch('w', 's', [
          { peerId: 'u', content: 'old', createdAt: '2023-05-07T13:00:00+02:00' },
        ])
        expect(m?.createdAt).toBe('2023-05-07T11:00:00.000Z')
      })

      it('refuses invalid input before writing anything', async () => {
        const store = await stores.open()
        const cases: [string, string, unknown][] = [
          ['', 's', [{ peerId: 'u', content: 'x' }]],
          ['w', '', [{ peerId: 'u', content: 'x' }]],
          [
            'w',
            's',
            [
              { peerId: 'u', content: 'fine' },
              { peerId: '', content: 'x' },
            ],
          ],
          [
            'w',
            's',
            [
              { peerId: 'u', content: 'fine' },
              { peerId: 'u', content: 42 },
            ],
          ],
          ['w', 's', [{ peerId: 'u', content: 'x', metadata: 'nope' }]],
          ['w', 's', [{ peerId: 'u', content: 'x', metadata: ['a'] }]],
          ['w', 's', [{ peerId: 'u', content: 'x', role: 'robot' }]],
          ['w', 's', [{ peerId: 'u', content: 'x', createdAt: 'yesterday' }]],
          ['w', 's', [{ peerId: 'u', content: 'x', tokenCount: -1 }]],
          ['w', 's', 'not an array'],
          ['w', 's', [null]],
        ]
        for (const [workspaceId, sessionId, messages] of cases) {
          await expectStoreError(
            store.messages.insertBatch(workspaceId, sessionId, bad(messages)),
            'INVALID_INPUT',
          )
        }
        expect((await store.workspaces.list()).total).toBe(0)
        expect(await store.messages.count('w')).toBe(0)
      })

      it('an empty batch writes nothing', async () => {
        const store = await stores.open()
        expect(await store.messages.insertBatch('w', 's', [])).toEqual([])
        expect(await store.workspaces.get('w')).toBeNull()
      })

      it('joins an enclosing transaction and rolls back with it', async () => {
        const store = await stores.open()
        await expect(
          store.transaction(async (tx) => {
            await tx.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'first' }])
            await tx.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'second' }])
            expect(await tx.messages.count('w')).toBe(2)
            throw new Error('abort the whole thing')
          }),
        ).rejects.toThrow('abort the whole thing')
        expect(await store.messages.count('w')).toBe(0)
        expect(await store.workspaces.get('w')).toBeNull()

        await store.transaction(async (tx) => {
          await tx.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'kept' }])
        })
        expect(await store.messages.count('w')).toBe(1)
      })

      it('rolls back a whole batch when the database refuses part of it', async () => {
        const store = await stores.open({ newId: () => 'same-public-id' })
        await expect(
          store.messages.insertBatch('w', 's', [
            { peerId: 'u', content: 'a' },
            { peerId: 'u', content: 'b' },
          ]),
        ).rejects.toThrow(/unique/i)
        expect(await store.messages.count('w')).toBe(0)
        expect(await store.sessions.get('w', 's')).toBeNull()
      })

      it('concurrent batches on one store serialise instead of nesting transactions', async () => {
        const store = await stores.open()
        await Promise.all(
          Array.from({ length: 10 }, (_, i) =>
            store.messages.insertBatch('w', `s${i % 3}`, [
              { peerId: 'u', content: `${i}a` },
              { peerId: 'u', content: `${i}b` },
            ]),
          ),
        )
        expect(await store.messages.count('w')).toBe(20)
        expect(await store.messages.count('w', { sessionId: 's0' })).toBe(8)
      })

      it('counts the messages of a session up to a message (its position in the session)', async () => {
        const store = await stores.open()
        const [first, second, third] = await store.messages.insertBatch(
          'w',
          's',
          ['one', 'two', 'three'].map((content) => ({ peerId: 'u', content })),
        )
        await store.messages.insertBatch('w', 'other', [{ peerId: 'u', content: 'elsewhere' }])
        expect(await store.messages.count('w', { sessionId: 's', upToId: first!.id })).toBe(1)
        expect(await store.messages.count('w', { sessionId: 's', upToId: third!.id })).toBe(3)
        expect(await store.messages.count('w', { upToId: second!.id })).toBe(2)
        await expect(store.messages.count('w', { upToId: 1.5 })).rejects.toThrow('upToId must be an integer')
      })

      it('reads by public id, by internal ids, after an id, and pages newest first', async () => {
        const store = await stores.open()
        const inserted = await store.messages.insertBatch(
          'w',
          's',
          ['one', 'two', 'three', 'four', 'five'].map((content) => ({ peerId: 'u', content })),
        )
        await store.messages.insertBatch('w', 'other', [{ peerId: 'u', content: 'elsewhere' }])
        const third = inserted[2]!
        expect(await store.messages.getByPublicId('w', third.publicId)).toEqual(third)
        expect(await store.messages.getByPublicId('other-workspace', third.publicId)).toBeNull()
        expect((await store.messages.getByIds('w', [5, 1, 999, 1])).map((m) => m.content)).toEqual([
          'five',
          'one',
        ])
        expect(await store.messages.getByIds('other-workspace', [5, 1])).toEqual([])
        expect((await store.messages.listAfter('w', 's', 2, 2)).map((m) => m.content)).toEqual([
          'three',
          'four',
        ])
        const newest = await store.messages.listBySession('w', 's', { size: 2, page: 1, reverse: true })
        expect(newest.items.map((m) => m.content)).toEqual(['five', 'four'])
        expect(newest).toMatchObject({ total: 5, pages: 3 })
        expect(await store.messages.count('w')).toBe(6)
      })

      it('updateMetadata replaces metadata and returns null for an unknown message', async () => {
        const store = await stores.open()
        const [m] = await store.messages.insertBatch('w', 's', [
          { peerId: 'u', content: 'x', metadata: { a: 1 } },
        ])
        const updated = await store.messages.updateMetadata('w', m!.publicId, { b: 2 })
        expect(updated).toEqual({ ...m, metadata: { b: 2 } })
        expect(await store.messages.updateMetadata('w', 'nope', { b: 2 })).toBeNull()
        await expectStoreError(store.messages.updateMetadata('w', m!.publicId, bad([])), 'INVALID_INPUT')
      })
    })

    describe('dream runs repository', () => {
      it('records a run from start to finish with its counters', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        const id = await store.dreamRuns.start('w', { extractor: 'openai:gpt-4o-mini', promptVersion: 'v3' })
        advance(5000)
        await store.dreamRuns.finish('w', id, {
          status: 'ok',
          chunksCreated: 4,
          chunksProcessed: 3,
          edgesUpserted: 9,
          llmCalls: 3,
          promptTokens: 1200,
          completionTokens: 300,
          counts: { episodes: 1 },
          timings: { extract: 4.2 },
          errors: ['chunk 7: invalid JSON'],
        })
        expect(await store.dreamRuns.recent('w')).toEqual([
          {
            id,
            workspaceId: 'w',
            status: 'ok',
            skipReason: null,
            extractor: 'openai:gpt-4o-mini',
            promptVersion: 'v3',
            chunksCreated: 4,
            chunksProcessed: 3,
            edgesUpserted: 9,
            llmCalls: 3,
            promptTokens: 1200,
            completionTokens: 300,
            counts: { episodes: 1 },
            timings: { extract: 4.2 },
            errors: ['chunk 7: invalid JSON'],
            startedAt: '2026-03-01T10:00:00.000Z',
            finishedAt: '2026-03-01T10:00:05.000Z',
          },
        ])
      })

      it('records skips and lists the most recent first, per workspace', async () => {
        const { clock, advance } = manualClock()
        const store = await stores.open({ clock })
        const running = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
        advance(1000)
        const skipped = await store.dreamRuns.recordSkip('w', 'locked')
        await store.dreamRuns.recordSkip('other', 'locked')
        const recent = await store.dreamRuns.recent('w', 10)
        expect(recent.map((r) => [r.id, r.status, r.skipReason])).toEqual([
          [skipped, 'skipped', 'locked'],
          [running, 'running', null],
        ])
        expect(recent[0]?.finishedAt).toBe('2026-03-01T10:00:01.000Z')
        expect(await store.dreamRuns.recent('w', 1)).toHaveLength(1)
      })

      it('refuses unknown runs and invalid outcomes', async () => {
        const store = await stores.open()
        const id = await store.dreamRuns.start('w', { extractor: 'x', promptVersion: 'v1' })
        await expectStoreError(store.dreamRuns.finish('w', 9999, { status: 'ok' }), 'NOT_FOUND')
        await expectStoreError(store.dreamRuns.finish('another', id, { status: 'ok' }), 'NOT_FOUND')
        await expectStoreError(
          store.dreamRuns.finish('w', id, { status: 'running' as 'ok' }),
          'INVALID_INPUT',
        )
        await expectStoreError(
          store.dreamRuns.finish('w', id, { status: 'ok', llmCalls: -1 }),
          'INVALID_INPUT',
        )
        await expectStoreError(
          store.dreamRuns.finish('w', id, { status: 'ok', timings: { a: Number.NaN } }),
          'INVALID_INPUT',
        )
        await expectStoreError(store.dreamRuns.recordSkip('w', ''), 'INVALID_INPUT')
        expect((await store.dreamRuns.recent('w'))[0]?.status).toBe('running')
      })
    })
  })
}
