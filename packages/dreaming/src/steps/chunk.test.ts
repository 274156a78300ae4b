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
  const chunks = () => t.store.db.selectFrom('chunks').selectAll().orderBy('id').execute()

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
    expect(rows.map((c) => [c.salience_reason, JSON.parse(c.message_ids), c.occurred_at])).toEqual([
      ['decision,technology', [m1!.id, m2!.id], at(1)],
      ['preference', [m4!.id], at(3)],
    ])
    expect(rows[0]!.text).toBe(
      'user: We decided to go with Postgres for billing.\nassistant: Good choice; Postgres depends on nothing exotic.',
    )
    expect(ctx.tally.chunksCreated).toBe(2)
    expect(
      (await t.store.db.selectFrom('sessions').select('last_chunked_message_id').executeTakeFirst())
        ?.last_chunked_message_id,
    ).toBe(m4!.id)
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
    expect(rows.map((c) => JSON.parse(c.message_ids).length)).toEqual([2, 1])
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
    expect((await chunks()).map((c) => c.salience_reason)).toEqual(['change', 'technology'])
    expect(await t.store.db.selectFrom('chunks').select('workspace_id').distinct().execute()).toEqual([
      { workspace_id: WS },
    ])
  })

  it('indexes mentions of already known entities as it writes each chunk', async () => {
    await t.store.db
      .insertInto('entity_aliases')
      .values({ workspace_id: WS, surface: 'pg', canonical: 'postgresql', created_at: at(0) })
      .execute()
    await logLines(t.store, 's1', [user('We moved the Kafka topics next to PG, finally.', 0)])
    await chunkNewMessages(stepContext(t))
    const mentions = await t.store.db.selectFrom('entity_mentions').select('entity').execute()
    expect(mentions).toEqual([{ entity: 'postgresql' }])
  })
})
