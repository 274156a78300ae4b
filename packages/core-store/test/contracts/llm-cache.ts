import { describe, expect, it } from 'vitest'
import type { BackendUnderTest } from '../backends'
import { expectStoreError, manualClock } from '../store-harness'

/** The llm cache cases of the store contract, run against every backend. */
export function describeLlmCacheContract(backend: BackendUnderTest) {
  describe('LLM cache repository', () => {
    const stores = backend.use()

    it('stores an answer under a key and keeps the first one', async () => {
      const store = await stores.open({ clock: manualClock().clock })
      const usage = { promptTokens: 10, completionTokens: 2 }
      expect(await store.llmCache.get('k')).toBeNull()
      await store.llmCache.put('k', { model: 'm', response: '{"a":1}', usage })
      await store.llmCache.put('k', { model: 'm', response: '{"a":2}', usage })
      expect(await store.llmCache.get('k')).toEqual({ model: 'm', response: '{"a":1}' })
      await expectStoreError(store.llmCache.get(''), 'INVALID_INPUT')
      await expectStoreError(
        store.llmCache.put('k2', { model: 'm', response: 3 as never, usage }),
        'INVALID_INPUT',
      )
    })

    it('counts its answers and trims the oldest outside the age and row bounds', async () => {
      const { clock, advance } = manualClock()
      const store = await stores.open({ clock })
      const usage = { promptTokens: 1, completionTokens: 1 }
      for (const key of ['a', 'b', 'c', 'd', 'e']) {
        await store.llmCache.put(key, { model: 'm', response: key, usage })
        advance(60_000)
      }
      expect(await store.llmCache.count()).toBe(5)
      const bounds = { before: null, keepNewest: null, limit: 100 }
      expect(await store.llmCache.trim(bounds)).toBe(0)
      expect(await store.llmCache.trim({ ...bounds, before: '2026-03-01T10:01:30.000Z' })).toBe(2)
      expect(await store.llmCache.get('b')).toBeNull()
      expect(await store.llmCache.trim({ ...bounds, keepNewest: 1, limit: 1 })).toBe(1)
      expect(await store.llmCache.trim({ ...bounds, keepNewest: 1 })).toBe(1)
      expect(await store.llmCache.count()).toBe(1)
      expect(await store.llmCache.get('e')).toEqual({ model: 'm', response: 'e' })
      await expectStoreError(store.llmCache.trim({ ...bounds, limit: 1.5 }), 'INVALID_INPUT')
    })
  })
}
