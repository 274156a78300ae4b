import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  fixedEmbeddings,
  indexVectors,
  insertMessages,
  openTestStore,
  type TestStore,
  WS,
} from '../../test/harness'
import { createQueryEngine } from '../engine'

const hitsOnly = { limits: { graph: 0, episodes: 0, procedures: 0, notes: 0 } }
const OFF = {
  neighbourWeight: 0,
  sessionWeight: 0,
  peerMentionBoost: 0,
  denseTurnWeight: 0,
  timeQuestionBoost: 0,
  dateWindowBoost: 0,
  questionTurnWeight: 1,
  replyWeight: 0,
  assistantQuestionTurnWeight: 1,
  assistantReplyWeight: 0,
  standingRuleBoost: 0,
  assistantTurnWeight: 1,
  otherAuthorWeight: 1,
}

describe('message hits rescored in context', () => {
  let t: TestStore
  let s1: number[]
  let s2: number[]

  beforeEach(async () => {
    t = openTestStore()
    s1 = await insertMessages(t.store, 's1', [
      { peerId: 'ann', content: 'Hey Bob, how was the pottery class?' },
      { peerId: 'bob', content: 'Great! I made a bowl in the pottery class.' },
      { peerId: 'ann', content: 'Nice, what colour is it?' },
      { peerId: 'bob', content: 'Blue with white dots.' },
    ])
    s2 = await insertMessages(t.store, 's2', [
      { peerId: 'ann', content: 'I signed up for a pottery class too, Bob.' },
      { peerId: 'bob', content: 'We should go together.' },
    ])
  })
  afterEach(() => t.close())

  it('ranks turns by the peer the query names above turns that only address that peer', async () => {
    const query = 'What did Bob make in pottery class?'
    const plain = await createQueryEngine({ store: t.store, config: OFF }).augment(query, {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(plain.hits[0]?.id).not.toBe(s1[1])
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, peerMentionBoost: 1 } })
    const { hits } = await engine.augment(query, { workspaceId: WS, ...hitsOnly })
    expect(hits[0]).toMatchObject({ kind: 'message', id: s1[1], peerId: 'bob' })
    expect(hits[0]!.whyRetrieved).toContain('author:bob')
  })

  it('adds the adjacent turns of a match, within its session only', async () => {
    const engine = createQueryEngine({
      store: t.store,
      config: { ...OFF, neighbourWeight: 0.3, neighbourSpan: 1 },
    })
    const { hits } = await engine.augment('bowl', { workspaceId: WS, ...hitsOnly })
    expect(hits.map((hit) => hit.id)).toEqual([s1[1], s1[0], s1[2]])
    // The neighbour shares no word with the query: no keyword reason, only the one that reached it.
    expect(hits[1]!.whyRetrieved).toEqual([`neighbour_of:${s1[1]}`])
    expect(hits[0]!.whyRetrieved).toEqual(['keyword:messages#1'])
    const { hits: edge } = await engine.augment('together', { workspaceId: WS, ...hitsOnly })
    expect(edge.map((hit) => hit.id)).toEqual([s2[1], s2[0]])
  })

  it('reaches neighbourSpan turns on either side', async () => {
    const engine = createQueryEngine({
      store: t.store,
      config: { ...OFF, neighbourWeight: 0.3, neighbourSpan: 2 },
    })
    const { hits } = await engine.augment('dots', { workspaceId: WS, ...hitsOnly })
    // Both earlier turns get the same share; ties keep message order.
    expect(hits.map((hit) => hit.id)).toEqual([s1[3], s1[1], s1[2]])
  })

  it('leaves adjacent turns out when the search is limited to one author', async () => {
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, neighbourWeight: 0.3 } })
    const { hits } = await engine.augment('bowl', { workspaceId: WS, peerId: 'bob', ...hitsOnly })
    expect(hits.map((hit) => hit.id)).toEqual([s1[1]])
  })

  it('lifts the turns of the session that matches best as a whole', async () => {
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, sessionWeight: 1 } })
    const { hits } = await engine.augment('pottery class colour', { workspaceId: WS, ...hitsOnly })
    const sessions = hits.map((hit) => hit.sessionId)
    expect(sessions.slice(0, 3)).toEqual(['s1', 's1', 's1'])
    expect(hits.find((hit) => hit.sessionId === 's2')?.whyRetrieved).toContain('session_context')
  })

  it('spreads a question asking for an order across sessions, and leaves other questions in score order', async () => {
    const s3 = await insertMessages(t.store, 's3', [
      {
        peerId: 'ann',
        content: 'Pottery class today: glazing the pottery bowl, pottery kiln, pottery wheel.',
      },
      { peerId: 'ann', content: 'More pottery class notes: pottery glaze and pottery clay.' },
      { peerId: 'ann', content: 'Pottery class homework: a pottery vase.' },
    ])
    const config = { ...OFF, firstMentionWeight: 0, sessionWeight: 1, orderSessionDecay: 0.3 }
    const engine = createQueryEngine({ store: t.store, config })
    const plain = await engine.augment('pottery class', { workspaceId: WS, ...hitsOnly })
    expect(new Set(plain.hits.slice(0, 3).map((hit) => hit.id))).toEqual(new Set(s3))
    const ordered = await engine.augment('In which order did we talk about the pottery class?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(new Set(ordered.hits.slice(0, 3).map((hit) => hit.sessionId))).toEqual(new Set(['s1', 's2', 's3']))
    const kept = createQueryEngine({ store: t.store, config: { ...config, orderSessionDecay: 1 } })
    const same = await kept.augment('In which order did we talk about the pottery class?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(same.hits.slice(0, 3).map((hit) => hit.sessionId)).toEqual(['s3', 's3', 's3'])
  })

  it('passes a matching question turn on to its reply', async () => {
    const engine = createQueryEngine({
      store: t.store,
      config: { ...OFF, neighbourWeight: 0.3, neighbourSpan: 1, questionTurnWeight: 0.5, replyWeight: 1.5 },
    })
    const { hits } = await engine.augment('what colour', { workspaceId: WS, ...hitsOnly })
    expect(hits.map((hit) => hit.id).slice(0, 2)).toEqual([s1[3], s1[2]])
    expect(hits[0]!.whyRetrieved).toEqual([`reply_to:${s1[2]}`])
    expect(hits[1]!.whyRetrieved[0]).toBe('keyword:messages#2')
  })

  it('decides the question and reply levers by who answers: an assistant, or another person or agent', async () => {
    const config = {
      ...OFF,
      neighbourWeight: 0.3,
      neighbourSpan: 1,
      questionTurnWeight: 0.5,
      replyWeight: 1.5,
      assistantQuestionTurnWeight: 1,
      assistantReplyWeight: 0,
    }
    const engine = createQueryEngine({ store: t.store, config })
    const chat = await insertMessages(t.store, 'chat', [
      { peerId: 'dana', content: 'My sourdough starter is called Bubbles, how often should I feed it?' },
      { peerId: 'assistant', content: 'Feed it daily at room temperature.' },
    ])
    const agents = await insertMessages(t.store, 'agents', [
      { peerId: 'planner-agent', content: 'Which queue holds the sourdough orders?' },
      { peerId: 'coder-agent', content: 'The bakery queue.' },
    ])
    const { hits } = await engine.augment('sourdough starter feed', { workspaceId: WS, ...hitsOnly })
    const order = hits.map((hit) => hit.id)
    // The user's own request keeps its full score and the assistant's reply gains nothing from it; between
    // two agents the question is discounted and its reply is lifted above it.
    expect(order.indexOf(chat[0]!)).toBeLessThan(order.indexOf(chat[1]!))
    expect(hits.find((hit) => hit.id === chat[1])?.whyRetrieved ?? []).not.toContain(`reply_to:${chat[0]}`)
    expect(order.indexOf(agents[1]!)).toBeLessThan(order.indexOf(agents[0]!))
    expect(hits.find((hit) => hit.id === agents[1])?.whyRetrieved).toContain(`reply_to:${agents[0]}`)
  })

  it("keeps the assistant's answers at full weight for a question about what the assistant said", async () => {
    const ids = await insertMessages(t.store, 'groceries', [
      { peerId: 'dana', content: 'My grocery budget doubled this year, what should I do?' },
      {
        peerId: 'assistant',
        content: 'I recommend a weekly grocery budget, a shopping list and cooking in batches.',
      },
    ])
    const config = { ...OFF, assistantTurnWeight: 0.3, assistantWordsTurnWeight: 1 }
    const engine = createQueryEngine({ store: t.store, config })
    const rank = async (query: string) =>
      (await engine.augment(query, { workspaceId: WS, ...hitsOnly })).hits.map((hit) => hit.id)
    expect((await rank('What did you recommend for my grocery budget?'))[0]).toBe(ids[1])
    // A request about the same things, not about the assistant's answer: its turns are discounted.
    expect((await rank('How do I fix my grocery budget?'))[0]).toBe(ids[0])
  })

  it("lifts a user's standing rule for a later request on its topic, and not an assistant's restatement", async () => {
    const ids = await insertMessages(t.store, 'rules', [
      { peerId: 'dana', content: 'Always show code examples in TypeScript when I ask about files.' },
      { peerId: 'assistant', content: 'Always happy to show examples! Reading files in Python uses open().' },
      { peerId: 'dana', content: 'Reading files one line at a time is what I need, for code I maintain.' },
    ])
    const query = 'how do I read files line by line in code?'
    const plain = createQueryEngine({ store: t.store, config: OFF })
    const before = (await plain.augment(query, { workspaceId: WS, ...hitsOnly })).hits.map((hit) => hit.id)
    expect(before.indexOf(ids[0]!)).toBeGreaterThan(before.indexOf(ids[2]!))
    const engine = createQueryEngine({ store: t.store, config: { ...OFF, standingRuleBoost: 2 } })
    const { hits } = await engine.augment(query, { workspaceId: WS, ...hitsOnly })
    expect(hits[0]?.id).toBe(ids[0])
    expect(hits[0]?.whyRetrieved).toContain('standing_rule')
    expect(hits.find((hit) => hit.id === ids[1])?.whyRetrieved ?? []).not.toContain('standing_rule')
  })

  it('leaves a standing rule unlifted for a question about the past', async () => {
    const ids = await insertMessages(t.store, 'rules', [
      { peerId: 'dana', content: 'Always show code examples in TypeScript when I ask about files.' },
      { peerId: 'assistant', content: 'Sure.' },
      { peerId: 'dana', content: 'I said the config files live in the deploy folder of the repo.' },
    ])
    const config = { ...OFF, standingRuleBoost: 2, recallStandingRuleBoost: 0 }
    const engine = createQueryEngine({ store: t.store, config })
    const rank = async (query: string) => (await engine.augment(query, { workspaceId: WS, ...hitsOnly })).hits
    const request = await rank('show me how to read config files')
    expect(request[0]?.id).toBe(ids[0])
    expect(request[0]?.whyRetrieved).toContain('standing_rule')
    const recall = await rank('What did I say about the config files?')
    expect(recall[0]?.id).toBe(ids[2])
    expect(recall.find((hit) => hit.id === ids[0])?.whyRetrieved ?? []).not.toContain('standing_rule')
  })

  it('reaches turns by meaning through the message vectors, within the peer the search is limited to', async () => {
    const query = 'which instrument is played?'
    const ids = await insertMessages(t.store, 's3', [
      { peerId: 'bob', content: 'Practising my violin every evening now.' },
      { peerId: 'ann', content: 'My cello is out of tune.' },
    ])
    const embeddings = fixedEmbeddings(
      {
        [query]: [1, 0],
        'bob: Practising my violin every evening now.': [0.8, 0.6],
        'ann: My cello is out of tune.': [0.9, Math.sqrt(0.19)],
      },
      [0, 1],
    )
    await indexVectors(t.store, embeddings, 'messages', [
      { id: ids[0]!, text: 'bob: Practising my violin every evening now.' },
      { id: ids[1]!, text: 'ann: My cello is out of tune.' },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings, config: { ...OFF, denseTurnWeight: 1 } })
    const { hits } = await engine.augment(query, { workspaceId: WS, ...hitsOnly })
    expect(hits.map((hit) => hit.id).slice(0, 2)).toEqual([ids[1], ids[0]])
    expect(hits[0]!.whyRetrieved).toContain('semantic_0.90')
    const bob = await engine.augment(query, { workspaceId: WS, peerId: 'bob', ...hitsOnly })
    expect(bob.hits.map((hit) => hit.id)).toEqual([ids[0]])
    const none = createQueryEngine({ store: t.store, embeddings, config: OFF })
    expect(
      (await none.augment(query, { workspaceId: WS, ...hitsOnly })).hits.map((hit) => hit.id),
    ).not.toContain(ids[1])
  })

  it('puts the turn holding a rare identifier the query names ahead of turns only near it in meaning', async () => {
    const query = 'How did we get past ERR_OSSL_EVP_UNSUPPORTED in the build?'
    const ids = await insertMessages(t.store, 's5', [
      {
        peerId: 'ann',
        content: 'The build broke after the Node upgrade: an OpenSSL error in the build step.',
      },
      { peerId: 'bob', content: 'Setting NODE_OPTIONS fixed ERR_OSSL_EVP_UNSUPPORTED for us.' },
    ])
    const paraphrase = 'ann: The build broke after the Node upgrade: an OpenSSL error in the build step.'
    const exact = 'bob: Setting NODE_OPTIONS fixed ERR_OSSL_EVP_UNSUPPORTED for us.'
    const embeddings = fixedEmbeddings(
      { [query]: [1, 0], [paraphrase]: [0.99, 0.14], [exact]: [0.3, 0.95] },
      [0, 1],
    )
    await indexVectors(t.store, embeddings, 'messages', [
      { id: ids[0]!, text: paraphrase },
      { id: ids[1]!, text: exact },
    ])
    const engine = createQueryEngine({ store: t.store, embeddings, config: { ...OFF, denseTurnWeight: 3 } })
    const { hits } = await engine.augment(query, { workspaceId: WS, sessionIds: ['s5'], ...hitsOnly })
    expect(hits.map((hit) => hit.id)).toEqual([ids[1], ids[0]])
    expect(hits[0]!.whyRetrieved).toContain('exact_term:ERR_OSSL_EVP_UNSUPPORTED')
  })

  it('for a question about time, lifts turns naming a time and turns written in the named period', async () => {
    const ids = await insertMessages(t.store, 's4', [
      { peerId: 'ann', content: 'The pottery show was great fun.', createdAt: '2023-05-02T10:00:00.000Z' },
      {
        peerId: 'ann',
        content: 'I went to the pottery show last week.',
        createdAt: '2023-03-02T10:00:00.000Z',
      },
      { peerId: 'ann', content: 'Another pottery show, so good.', createdAt: '2023-07-09T10:00:00.000Z' },
    ])
    const engine = createQueryEngine({
      store: t.store,
      config: { ...OFF, timeQuestionBoost: 1, dateWindowBoost: 1 },
    })
    const when = await engine.augment('When did Ann go to the pottery show?', {
      workspaceId: WS,
      sessionIds: ['s4'],
      ...hitsOnly,
    })
    expect(when.hits[0]).toMatchObject({ id: ids[1] })
    expect(when.hits[0]!.whyRetrieved).toContain('time_mention')
    const july = await engine.augment('Which pottery show did Ann see in July 2023?', {
      workspaceId: WS,
      sessionIds: ['s4'],
      ...hitsOnly,
    })
    expect(july.hits[0]).toMatchObject({ id: ids[2] })
    expect(july.hits[0]!.whyRetrieved).toContain('date_window:2023-07-01..2023-08-15')
  })
})

describe('a question whether something ever happened', () => {
  let t: TestStore
  let never: number

  beforeEach(async () => {
    t = openTestStore()
    const ids = await insertMessages(t.store, 's1', [
      { peerId: 'ann', content: 'I worked with Michael on the editing timeline and the Michael review.' },
      { peerId: 'ann', content: 'Honestly I have never met Michael in person.' },
      { peerId: 'ann', content: 'Michael asked about the timeline for the launch and Michael agreed.' },
    ])
    never = ids[1]!
  })
  afterEach(() => t.close())

  it('lifts the turn saying it never happened: the other half of a contradiction', async () => {
    const question = 'Have I ever worked with Michael before?'
    const on = createQueryEngine({ store: t.store, config: { ...OFF, denialBoost: 1 } })
    const { hits } = await on.augment(question, { workspaceId: WS, ...hitsOnly })
    const lifted = hits.find((hit) => hit.id === never)!
    expect(lifted.whyRetrieved).toContain('denial')
    const off = createQueryEngine({ store: t.store, config: { ...OFF, denialBoost: 0 } })
    const before = await off.augment(question, { workspaceId: WS, ...hitsOnly })
    const rank = (list: readonly { id: number }[]) => list.findIndex((hit) => hit.id === never)
    expect(rank(hits)).toBeLessThan(rank(before.hits))

    const other = await on.augment('What did Michael say about the timeline?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(other.hits.flatMap((hit) => hit.whyRetrieved)).not.toContain('denial')
  })
})
