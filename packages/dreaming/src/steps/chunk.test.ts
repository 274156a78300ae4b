import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { type Line, logLines, openTestStore, stepContext, type TestStore, WS } from '../../test/harness'
import { chunkNewMessages } from './chunk'

const at = (minute: number) => new Date(Date.UTC(2026, 1, 20, 9, minute)).toISOString()
const user = (content: string, minute: number): Line => ({
  peer: 'alice',
  role: 'user',
  content,
  at: at(minute),
})
const bot = (content: string, minute: number): Line => ({
  peer: 'hermes',
  role: 'assistant',
  content,
  at: at(minute),
})

describe('salience chunking', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(async () => {
    await t.cleanup()
  })
  const chunks = () => t.store.chunks.listAll(WS)

  it('merges consecutive salient turns, breaks on small talk and keeps provenance', async () => {
    const [m1, m2, , m4] = await logLines(t.store, 's1', [
      user('We decided to go with Postgres for billing.', 0),
      bot('Good choice; Postgres depends on nothing exotic.', 1),
      user('thanks', 2),
      user('Ik gebruik liever tabs dan spaties in Go code.', 3),
    ])
    const ctx = stepContext(t)
    await chunkNewMessages(ctx)
    const rows = await chunks()
    expect(rows.map((c) => [c.salienceReason, c.messageIds, c.occurredAt])).toEqual([
      ['decision,technology', [m1!.id, m2!.id], at(1)],
      ['preference', [m4!.id], at(3)],
    ])
    expect(rows[0]!.text).toBe(
      'user: We decided to go with Postgres for billing.\nassistant: Good choice; Postgres depends on nothing exotic.',
    )
    expect(ctx.tally.chunksCreated).toBe(2)
    expect(await t.store.sessions.listChunkWatermarks(WS)).toEqual([
      { sessionId: 's1', lastChunkedMessageId: m4!.id },
    ])
  })

  it('drops chunks under the minimum length and splits at the maximum size', async () => {
    await logLines(t.store, 's1', [
      user('We use Go.', 0),
      user('ok', 1),
      ...[2, 3, 4].map((m) => user(`We use tool ${m} for the release pipeline, daily.`, m)),
    ])
    await chunkNewMessages(stepContext(t, { config: { chunkMaxChars: 120, salienceMinChars: 30 } }))
    const rows = await chunks()
    expect(rows.every((c) => c.text.length >= 30 && c.text.length <= 120)).toBe(true)
    expect(rows.map((c) => c.messageIds.length)).toEqual([2, 1])
  })

  it('never chunks a message twice, whichever connection chunks it', async () => {
    await logLines(t.store, 's1', [user('We switched from npm to pnpm last week.', 0)])
    const fork = t.store.fork()
    try {
      await chunkNewMessages({ ...stepContext(t), store: fork })
      await chunkNewMessages(stepContext(t))
    } finally {
      await fork.close()
    }
    expect(await chunks()).toHaveLength(1)
    await logLines(t.store, 's1', [user('We deploy to Fly.io from now on, always.', 1)])
    await chunkNewMessages(stepContext(t))
    expect((await chunks()).map((c) => [c.workspaceId, c.salienceReason])).toEqual([
      [WS, 'change'],
      [WS, 'technology'],
    ])
  })

  it('indexes mentions of already known entities as it writes each chunk', async () => {
    await t.store.aliases.claim(WS, 'pg', 'postgresql')
    await logLines(t.store, 's1', [user('We moved the Kafka topics next to PG, finally.', 0)])
    await chunkNewMessages(stepContext(t))
    const [chunk] = await chunks()
    expect(await t.store.mentions.listAll(WS)).toEqual([{ chunkId: chunk!.id, entity: 'postgresql' }])
  })

  it('commits a long page in groups of chunks: stopped after one, the next run ends with the same chunks', async () => {
    const lines = Array.from({ length: 120 }, (_, i) =>
      i % 2 === 0 ? user(`The service${i} depends on redis and uses kafka.`, i) : bot('ok', i),
    )
    await logLines(t.store, 's1', lines)
    const reference = openTestStore()
    try {
      await logLines(reference.store, 's1', lines)
      await chunkNewMessages(stepContext(reference))
      const expected = (await reference.store.chunks.listAll(WS)).map((c) => ({
        text: c.text,
        messageIds: c.messageIds,
      }))
      expect(expected).toHaveLength(60)

      const controller = new AbortController()
      // Fires before the checkpoint that follows the first group's commit.
      setImmediate(() => controller.abort())
      await expect(chunkNewMessages({ ...stepContext(t), signal: controller.signal })).rejects.toThrow()
      const first = await chunks()
      expect(first.length).toBeGreaterThan(0)
      expect(first.length).toBeLessThan(60)
      const [watermark] = await t.store.sessions.listChunkWatermarks(WS)
      expect(watermark?.lastChunkedMessageId).toBe(first.at(-1)!.messageIds.at(-1))

      await chunkNewMessages(stepContext(t))
      expect((await chunks()).map((c) => ({ text: c.text, messageIds: c.messageIds }))).toEqual(expected)
    } finally {
      await reference.cleanup()
    }
  })
})
