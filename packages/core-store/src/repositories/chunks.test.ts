import { describe, expect, it } from 'vitest'
import { expectStoreError, useTempStores } from '../../test/store-harness'

describe('chunks repository', () => {
  const stores = useTempStores()

  it('inserts a chunk over messages and reads it back by id, within its workspace only', async () => {
    const store = stores.open({ clock: () => new Date('2026-03-01T10:00:00.000Z') })
    const [a, b] = await store.messages.insertBatch('w', 's', [
      { peerId: 'ann', content: 'one' },
      { peerId: 'bob', content: 'two' },
    ])
    const chunk = await store.chunks.insert('w', {
      sessionId: 's',
      text: 'one two',
      salienceReason: 'decision',
      messageIds: [b!.id, a!.id],
      occurredAt: '2026-02-01T00:00:00.000Z',
    })
    expect(chunk).toMatchObject({
      workspaceId: 'w',
      sessionId: 's',
      text: 'one two',
      salienceReason: 'decision',
      messageIds: [b!.id, a!.id],
      firstMessageId: a!.id,
      lastMessageId: b!.id,
      occurredAt: '2026-02-01T00:00:00.000Z',
      createdAt: '2026-03-01T10:00:00.000Z',
    })
    expect(await store.chunks.getByIds('w', [chunk.id, 999])).toEqual([chunk])
    expect(await store.chunks.getByIds('other', [chunk.id])).toEqual([])
    expect(await store.chunks.getByIds('w', [])).toEqual([])
  })

  it('refuses a chunk without message ids', async () => {
    const store = stores.open()
    await expectStoreError(
      store.chunks.insert('w', { sessionId: 's', text: 'x', salienceReason: 'r', messageIds: [] }),
      'INVALID_INPUT',
    )
  })
})
