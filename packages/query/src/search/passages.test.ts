import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { indexVectors, insertMessages, openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'

const hitsOnly = { limits: { hits: 5, graph: 0, episodes: 0, procedures: 0, notes: 0 } }
const FILLER = 'The assistant walks through the general setup of the service and its many settings. '
const TAIL = 'For the rollback, pgbouncer must run in transaction mode.'
const LONG = `${FILLER.repeat(30)}\n\n${TAIL}`

describe('passages of long messages', () => {
  let t: TestStore
  let long: number
  let short: number
  const embeddings = createFakeEmbeddings({ dimensions: 64 })

  beforeEach(async () => {
    t = openTestStore()
    ;[short, long] = (await insertMessages(t.store, 's1', [
      {
        peerId: 'user',
        content: 'The general setup of the service uses a config file and a rollback script.',
      },
      { peerId: 'bot', content: LONG },
    ])) as [number, number]
    const tail = LONG.indexOf(TAIL)
    await t.store.passages.write(WS, [
      {
        messageId: long,
        ranges: [
          { start: 0, end: tail - 2 },
          { start: tail, end: LONG.length },
        ],
      },
    ])
  })
  afterEach(() => t.close())

  it('ranks a long message by its best keyword passage and names the passage as the reason', async () => {
    const engine = createQueryEngine({
      store: t.store,
      config: { neighbourWeight: 0, sessionWeight: 0, passageWeight: 1 },
    })
    const { hits } = await engine.augment('pgbouncer rollback transaction mode', {
      workspaceId: WS,
      ...hitsOnly,
    })
    const hit = hits.find((h) => h.id === long)!
    const start = LONG.indexOf(TAIL)
    expect(hit.reasons).toContainEqual({
      kind: 'passage',
      passageId: expect.any(Number),
      start,
      end: LONG.length,
    })
    expect(hit.whyRetrieved).toContain(`passage:${start}..${LONG.length}`)
    expect(
      hits.find((h) => h.id === short)?.whyRetrieved.some((code) => code.startsWith('passage:')),
    ).not.toBe(true)

    const off = createQueryEngine({
      store: t.store,
      config: { neighbourWeight: 0, sessionWeight: 0, passageWeight: 0 },
    })
    const without = await off.augment('pgbouncer rollback transaction mode', { workspaceId: WS, ...hitsOnly })
    expect(
      without.hits.find((h) => h.id === long)?.whyRetrieved.some((code) => code.startsWith('passage:')),
    ).not.toBe(true)
  })

  it('raises a long message to the similarity of its most similar passage', async () => {
    const passages = await t.store.passages.listForMessages(WS, [long])
    await indexVectors(t.store, embeddings, 'messages', [
      { id: short, text: 'user: general setup config file' },
      { id: long, text: `bot: ${LONG.slice(0, 2000)}` },
    ])
    await indexVectors(
      t.store,
      embeddings,
      'passages',
      passages.map((p) => ({ id: p.id, text: `bot: ${p.text}` })),
    )
    const engine = createQueryEngine({
      store: t.store,
      embeddings,
      config: { neighbourWeight: 0, sessionWeight: 0, passageWeight: 1 },
    })
    const { hits } = await engine.augment(TAIL, { workspaceId: WS, ...hitsOnly })
    const hit = hits.find((h) => h.id === long)!
    expect(hit.whyRetrieved).toContain(`passage:${passages[1]!.start}..${passages[1]!.end}`)
  })
})
