import { describe, expect, it } from 'vitest'
import { conversation, logLines, stepContext, useTestStore, WS } from '../../test/harness'
import { indexTopics } from './topics'

describe('indexTopics', () => {
  const t = useTestStore()

  it('records where each topic first came up in each session, per author, and reads only new messages', async () => {
    const [ask, answer, again] = await logLines(
      t.store,
      'monday',
      conversation('2026-03-02T09:00:00.000Z', [
        ['user', 'Our Redis cache keeps evicting sessions.'],
        ['assistant', 'Redis evicts keys when the cache reaches maxmemory.'],
        ['user', 'The cache is a Redis cluster on Fly.io.'],
      ]),
    )
    const ctx = stepContext(t)
    await indexTopics(ctx)
    expect(ctx.tally.counts.topicMentions).toBeGreaterThan(0)
    const redis = await t.store.topics.firstMentions(WS, ['redi', 'cluster'])
    expect(redis.map((m) => [m.peerId, m.term, m.messageId])).toEqual([
      ['alice', 'redi', ask!.id],
      ['hermes', 'redi', answer!.id],
      ['alice', 'cluster', again!.id],
    ])

    const [later] = await logLines(
      t.store,
      'tuesday',
      conversation('2026-03-03T09:00:00.000Z', [['user', 'Moving the Redis cluster to Upstash.']]),
    )
    const next = stepContext(t)
    await indexTopics(next)
    expect(await t.store.topics.listBacklog(WS)).toEqual([])
    const tuesday = await t.store.topics.firstMentions(WS, ['redi', 'upstash'], { sessionIds: ['tuesday'] })
    expect(tuesday.map((m) => [m.term, m.messageId])).toEqual([
      ['redi', later!.id],
      ['upstash', later!.id],
    ])
    await indexTopics(stepContext(t))
    expect(await t.store.topics.firstMentions(WS, ['redi'])).toHaveLength(3)
  })

  it('indexes unspaced scripts by the terms a question in the same language has', async () => {
    const [message] = await logLines(
      t.store,
      's',
      conversation('2026-03-02T09:00:00.000Z', [['user', '我们的后端服务部署在阿里云上']]),
    )
    await indexTopics(stepContext(t))
    const mentions = await t.store.topics.firstMentions(WS, ['后端', '阿里'])
    expect(mentions.map((m) => m.messageId)).toEqual([message!.id, message!.id])
  })

  it('keeps the user turns that state a standing rule', async () => {
    const [rule, , preference] = await logLines(
      t.store,
      'monday',
      conversation('2026-03-02T09:00:00.000Z', [
        ['user', 'Always show the SQL before running a migration.'],
        ['assistant', 'Always, from now on: I will show the SQL first.'],
        ['user', 'I prefer tabs, by the way.'],
        ['user', 'Which indentation does Go use?'],
      ]),
    )
    const ctx = stepContext(t)
    await indexTopics(ctx)
    expect(ctx.tally.counts.standingRules).toBe(2)
    const rules = await t.store.topics.standingRules(WS)
    expect(rules.map((r) => [r.peerId, r.messageId])).toEqual([
      ['alice', preference!.id],
      ['alice', rule!.id],
    ])
  })
})
