import { describe, expect, it } from 'vitest'
import { parseProcedureSteps } from '../../src/repositories/procedures'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The procedures cases of the store contract, run against every backend. */
export function describeProceduresContract(backend: BackendUnderTest) {
  describe('procedures repository', () => {
    const stores = backend.use()

    it('inserts procedures with numbered steps and reads them back by id, within their workspace only', async () => {
      const store = await stores.open()
      await store.sessions.getOrCreate('w', 's')
      const procedure = await store.procedures.upsert('w', {
        id: 'p-1',
        sessionId: 's',
        name: 'deploy',
        description: 'how we deploy',
        steps: [{ order: 2, text: 'fly deploy', tool: 'fly' }, { order: 1, text: 'run tests' }, 'tag'],
        messageIds: [7],
      })
      expect(procedure.steps).toEqual([
        { order: 1, text: 'run tests' },
        { order: 2, text: 'fly deploy', tool: 'fly' },
        { order: 3, text: 'tag' },
      ])
      expect(procedure.messageIds).toEqual([7])
      expect(await store.procedures.getByIds('w', ['p-1', 'missing'])).toEqual([procedure])
      expect(await store.procedures.getByIds('other', ['p-1'])).toEqual([])
      const hits = await store.fullText.search('procedures', 'tests', { workspaceId: 'w', limit: 5 })
      expect(hits.map((hit) => hit.id)).toEqual(['p-1'])
    })

    it('upserts a procedure by id and makes its numbered steps searchable', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
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

  describe('parseProcedureSteps', () => {
    it('accepts strings and objects, renumbers from 1, and survives malformed JSON', () => {
      expect(parseProcedureSteps('["a", {"text": "b", "tool": ""}, 7, {"order": "x", "text": "c"}]')).toEqual(
        [
          { order: 1, text: 'a' },
          { order: 2, text: 'b' },
          { order: 3, text: 'c' },
        ],
      )
      expect(parseProcedureSteps('{not json')).toEqual([])
      expect(parseProcedureSteps('{"text": "x"}')).toEqual([])
    })
  })
}
