import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../test/store-harness'

describe('store scopes and the shared connection on SQLite', () => {
  const stores = useTempStores()

  it('base-scope reads and writes wait for an open transaction instead of seeing or joining it', async () => {
    const store = stores.open()
    let release!: () => void
    const gate = new Promise<void>((resolve) => {
      release = resolve
    })
    const order: string[] = []
    const tx = store.transaction(async (scope) => {
      await scope.messages.insertBatch('w', 's', [
        { peerId: 'u', content: 'postgres inside the transaction' },
      ])
      await gate
      order.push('commit')
    })
    await new Promise((resolve) => setImmediate(resolve))
    const search = store.fullText
      .search('messages', 'postgres', { workspaceId: 'w', limit: 5 })
      .then((hits) => {
        order.push(`search saw ${hits.length}`)
      })
    const write = store.messages.insertBatch('w', 's', [{ peerId: 'u', content: 'after' }]).then(() => {
      order.push('base write')
    })
    await new Promise((resolve) => setTimeout(resolve, 20))
    expect(order).toEqual([])
    release()
    await Promise.all([tx, search, write])
    expect(order).toEqual(['commit', 'search saw 1', 'base write'])
    expect(await store.messages.count('w')).toBe(2)
  })
})
