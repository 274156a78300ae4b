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
  })
}
