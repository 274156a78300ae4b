import { describe, expect, it } from 'vitest'
import { expectStoreError, manualClock, useTempStores } from '../../test/store-harness'

describe('LLM cache repository', () => {
  const stores = useTempStores()

  it('stores an answer under a key and keeps the first one', async () => {
    const store = stores.open({ clock: manualClock().clock })
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
