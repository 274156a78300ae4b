import { type Store, topicKey, topicTerms } from '@hymem/core-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { daysAgo, openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'

const hitsOnly = { limits: { hits: 8, graph: 0, episodes: 0, procedures: 0, notes: 0 } }

/** The topic index as dreaming writes it (dreaming is a layer of its own; its step is tested there). */
async function indexTopics(store: Store): Promise<void> {
  for (const session of await store.topics.listBacklog(WS)) {
    const seen = new Set<string>()
    const messages = await store.messages.listAfter(WS, session.sessionId, 0, 1000)
    const mentions = messages.flatMap((message) =>
      topicTerms(message.content).flatMap((term) => {
        if (seen.has(topicKey(message.peerId, term))) return []
        seen.add(topicKey(message.peerId, term))
        return [{ peerId: message.peerId, term, messageId: message.id, createdAt: message.createdAt }]
      }),
    )
    await store.topics.record(WS, session.sessionId, {
      restart: true,
      mentions,
      lastMessageId: messages[messages.length - 1]?.id ?? 0,
      messagesRead: messages.length,
    })
  }
}

/** One session: the user brings a pricing topic up, then the assistant and the user go on about it. */
const SESSIONS: readonly (readonly [string, string])[] = [
  ['s1', 'What would the Hetzner pricing be for two dedicated boxes?'],
  ['s2', 'Can we negotiate annual pricing with the Datadog sales team?'],
  ['s3', 'Is usage-based pricing on Vercel cheaper for our traffic?'],
]

describe('first mentions for questions over the whole conversation', () => {
  let t: TestStore
  const firsts: number[] = []

  beforeEach(async () => {
    t = openTestStore()
    firsts.length = 0
    for (const [index, [sessionId, opener]] of SESSIONS.entries()) {
      const rows = await t.store.messages.insertBatch(WS, sessionId, [
        { peerId: 'ann', role: 'user', content: opener, createdAt: daysAgo(30 - index * 10) },
        {
          peerId: 'bot',
          role: 'assistant',
          content:
            'Pricing depends on the plan: pricing tiers, pricing discounts and pricing commitments all matter.',
          createdAt: daysAgo(30 - index * 10),
        },
        {
          peerId: 'ann',
          role: 'user',
          content: 'More on pricing: the pricing page, pricing tables, pricing for the pricing review.',
          createdAt: daysAgo(30 - index * 10),
        },
      ])
      firsts.push(rows[0]!.id)
    }
    await indexTopics(t.store)
  })
  afterEach(() => t.close())

  it('brings the turn where each session first raised the topic into the list, with its reason', async () => {
    const engine = createQueryEngine({ store: t.store, config: { neighbourWeight: 0, sessionWeight: 0 } })
    const question = 'In which order did I bring up the different pricing topics across our conversations?'
    const { hits } = await engine.augment(question, { workspaceId: WS, ...hitsOnly })
    const ids = hits.map((hit) => hit.id)
    for (const id of firsts) expect(ids).toContain(id)
    const first = hits.find((hit) => hit.id === firsts[0])!
    expect(first.whyRetrieved).toContain('first_mention:price')

    const off = createQueryEngine({
      store: t.store,
      config: { neighbourWeight: 0, sessionWeight: 0, firstMentionWeight: 0 },
    })
    const without = await off.augment(question, { workspaceId: WS, ...hitsOnly })
    expect(
      without.hits.flatMap((hit) => hit.whyRetrieved).some((why) => why.startsWith('first_mention')),
    ).toBe(false)
    const rank = (list: readonly { id: number }[], id: number) => list.findIndex((hit) => hit.id === id)
    expect(rank(hits, firsts[1]!)).toBeLessThan(rank(without.hits, firsts[1]!))
  })

  it('leaves questions about one moment alone', async () => {
    const engine = createQueryEngine({ store: t.store })
    const { hits } = await engine.augment('What is the Hetzner pricing?', { workspaceId: WS, ...hitsOnly })
    expect(hits.flatMap((hit) => hit.whyRetrieved).some((why) => why.startsWith('first_mention'))).toBe(false)
  })
})
