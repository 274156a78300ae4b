import type { MessageRole } from '@hymem/core-store'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'

const hitsOnly = { limits: { graph: 0, episodes: 0, procedures: 0, notes: 0 } }

describe('standing rules for a request', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())

  /** Logs the turns and records the user turns `rules` names as standing rules (what dreaming does). */
  async function log(sessionId: string, turns: [MessageRole, string][], rules: number[]): Promise<number[]> {
    const rows = await t.store.messages.insertBatch(
      WS,
      sessionId,
      turns.map(([role, content], i) => ({
        peerId: role === 'user' ? 'dana' : 'hermes',
        role,
        content,
        createdAt: new Date(Date.UTC(2026, 2, 2, 9, i)).toISOString(),
      })),
    )
    await t.store.topics.record(WS, sessionId, {
      restart: false,
      mentions: [],
      rules: rules.map((at) => ({ peerId: 'dana', messageId: rows[at]!.id, createdAt: rows[at]!.createdAt })),
      lastMessageId: rows[rows.length - 1]!.id,
      messagesRead: rows.length,
    })
    return rows.map((row) => row.id)
  }

  async function setUp(): Promise<number[]> {
    await log(
      'later',
      [
        ['user', 'The budget spreadsheet for the kitchen renovation is done.'],
        ['assistant', 'Great, the kitchen renovation budget spreadsheet looks complete.'],
        ['user', 'The kitchen renovation budget went over by ten percent.'],
        ['assistant', 'Renovation budgets often go over; ten percent is common.'],
      ],
      [],
    )
    return log(
      'rules',
      [
        ['user', 'Always give cost estimates in euros when we talk about the renovation.'],
        ['assistant', 'Understood, euros it is.'],
        ['user', 'I prefer short answers about gardening.'],
        ['assistant', 'Noted.'],
      ],
      [0, 2],
    )
  }

  it('pins the rule on the topic of a request for help first, with why', async () => {
    const [renovation, , gardening] = await setUp()
    const engine = createQueryEngine({ store: t.store })
    const { hits } = await engine.augment('Can you suggest how to split the renovation budget?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(hits[0]?.id).toBe(renovation)
    expect(hits[0]?.whyRetrieved).toContain('rule_for_topic:renov')
    // The other rule shares no topic with the request: it is not pinned.
    expect(
      hits.filter((hit) => hit.whyRetrieved.some((code) => code.startsWith('rule_for_topic'))),
    ).toHaveLength(1)
    expect(hits.find((hit) => hit.id === gardening)?.whyRetrieved ?? []).not.toContain(
      'rule_for_topic:garden',
    )
  })

  it('pins nothing for a question about the past, or with standingRulesTopK 0', async () => {
    const [renovation] = await setUp()
    const engine = createQueryEngine({ store: t.store })
    const recall = await engine.augment('How much did the renovation budget go over?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(recall.hits[0]?.id).not.toBe(renovation)
    expect(
      recall.hits.flatMap((hit) => hit.whyRetrieved).some((code) => code.startsWith('rule_for_topic')),
    ).toBe(false)
    const off = createQueryEngine({ store: t.store, config: { standingRulesTopK: 0 } })
    const { hits } = await off.augment('Can you suggest how to split the renovation budget?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(hits.flatMap((hit) => hit.whyRetrieved).some((code) => code.startsWith('rule_for_topic'))).toBe(
      false,
    )
  })

  it('pins no rule said between people, nor one outside the sessions asked for', async () => {
    const [rule] = await log(
      'people',
      [
        ['user', 'I always want the renovation quotes in writing.'],
        ['user', 'Same here, written renovation quotes only.'],
      ],
      [0],
    )
    const engine = createQueryEngine({ store: t.store })
    const request = 'Can you suggest a renovation contractor?'
    const { hits } = await engine.augment(request, { workspaceId: WS, ...hitsOnly })
    expect(hits.find((hit) => hit.id === rule)?.whyRetrieved ?? []).not.toContain('rule_for_topic:renov')

    const [told] = await setUp()
    const scoped = await engine.augment(request, { workspaceId: WS, sessionIds: ['later'], ...hitsOnly })
    expect(scoped.hits.map((hit) => hit.id)).not.toContain(told)
  })

  it('ranks a short rule on the topic above a long statement that shares more words in passing', async () => {
    const [, , rule] = await log(
      'mixed',
      [
        [
          'user',
          'I prefer reading long laptop reviews on my phone during the commute, and I keep laptop notes, ' +
            'travel plans, phone bills and commute times in one big spreadsheet for the whole family.',
        ],
        ['assistant', 'That sounds organised.'],
        ['user', 'Always include warranty terms for laptop purchases.'],
        ['assistant', 'Will do.'],
      ],
      [0, 2],
    )
    const engine = createQueryEngine({ store: t.store, config: { standingRulesTopK: 1 } })
    const { hits } = await engine.augment('Can you recommend a laptop for my commute?', {
      workspaceId: WS,
      ...hitsOnly,
    })
    expect(hits[0]?.id).toBe(rule)
    expect(hits[0]?.whyRetrieved).toContain('rule_for_topic:laptop')
  })
})
