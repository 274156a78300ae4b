import { describe, expect, it } from 'vitest'
import { builderOf } from '../../src/store/builder'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The scopes cases of the store contract, run against every backend. */
export function describeScopesContract(backend: BackendUnderTest) {
  describe('scopes repository', () => {
    const stores = backend.use()

    it('creates a scope once (with its workspace), gets and pages scopes oldest first', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const first = await store.scopes.getOrCreate('w', 'a', { metadata: { team: 'x' } })
      expect(first).toEqual({
        created: true,
        value: { workspaceId: 'w', id: 'a', metadata: { team: 'x' }, createdAt: '2026-03-01T10:00:00.000Z' },
      })
      expect(await store.workspaces.get('w')).not.toBeNull()
      const again = await store.scopes.getOrCreate('w', 'a', { metadata: { team: 'y' } })
      expect(again).toEqual({ created: false, value: first.value })
      for (const id of ['b', 'c']) {
        advance(1000)
        await store.scopes.getOrCreate('w', id)
      }
      expect(await store.scopes.get('w', 'c')).toMatchObject({ id: 'c', metadata: {} })
      expect(await store.scopes.get('w', 'missing')).toBeNull()
      const page = await store.scopes.list('w', { size: 2 })
      expect(page).toMatchObject({ total: 3, pages: 2 })
      expect(page.items.map((s) => s.id)).toEqual(['a', 'b'])
      expect((await store.scopes.list('w', { reverse: true })).items.map((s) => s.id)).toEqual([
        'c',
        'b',
        'a',
      ])
      await expectStoreError(store.scopes.getOrCreate('w', ''), 'INVALID_INPUT')
    })

    it('adds sessions (creating the scope), keeps join times, lists and removes members', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      for (const id of ['s-c', 's-a', 's-b']) await store.sessions.getOrCreate('w', id)
      await store.scopes.addSessions('w', 'team', ['s-b', 's-a'])
      advance(1000)
      await store.scopes.addSessions('w', 'team', ['s-a', 's-c', 's-c'])
      expect(await store.scopes.get('w', 'team')).not.toBeNull()
      const page = await store.scopes.listSessions('w', 'team', { size: 2 })
      expect(page).toMatchObject({ total: 3, pages: 2 })
      expect(page.items.map((s) => s.id)).toEqual(['s-a', 's-b'])
      const reversed = await store.scopes.listSessions('w', 'team', { reverse: true })
      expect(reversed.items.map((s) => s.id)).toEqual(['s-c', 's-b', 's-a'])
      await store.scopes.addSessions('w', 'other', ['s-c'])
      expect((await store.scopes.sessionIds('w', ['team', 'other'])).sort()).toEqual(['s-a', 's-b', 's-c'])
      expect(await store.scopes.sessionIds('w', [])).toEqual([])
      await store.scopes.removeSession('w', 'team', 's-b')
      expect((await store.scopes.sessionIds('w', ['team'])).sort()).toEqual(['s-a', 's-c'])
      expect((await store.scopes.listSessions('w', 'empty')).total).toBe(0)
    })

    it('reports each member session with its join time and active note count', async () => {
      const { clock } = manualClock()
      const store = await stores.open({ clock })
      await store.scopes.addSessions('w', 'team', ['s1', 's2'])
      const note = (id: string, sessionId: string, archivedAt: string | null) =>
        builderOf(store)
          .insertInto('notes')
          .values({
            id,
            workspace_id: 'w',
            description: id,
            content: id,
            session_id: sessionId,
            created_at: '2026-03-01T10:00:00.000Z',
            updated_at: '2026-03-01T10:00:00.000Z',
            last_accessed_at: '2026-03-01T10:00:00.000Z',
            archived_at: archivedAt,
          })
          .execute()
      await note('n1', 's1', null)
      await note('n2', 's1', null)
      await note('n3', 's1', '2026-03-02T00:00:00.000Z')
      const members = await store.scopes.members('w', 'team')
      expect(members.sort((a, b) => a.sessionId.localeCompare(b.sessionId))).toEqual([
        { sessionId: 's1', joinedAt: '2026-03-01T10:00:00.000Z', notes: 2 },
        { sessionId: 's2', joinedAt: '2026-03-01T10:00:00.000Z', notes: 0 },
      ])
    })
  })
}
