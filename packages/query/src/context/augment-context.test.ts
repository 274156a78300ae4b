import { loadTokenCounter } from '@hymem/core-store'
import fc from 'fast-check'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { insertEdge, insertMessages, insertNote, openTestStore, type TestStore, WS } from '../../test/harness'
import { createQueryEngine } from '../engine'
import type { QueryEngine } from '../types'

describe('augment context block', () => {
  let t: TestStore
  let engine: QueryEngine
  let turns: number[]
  beforeAll(async () => {
    t = openTestStore()
    turns = await insertMessages(t.store, 's1', [
      {
        peerId: 'ann',
        content: 'We moved the api to postgres last week.',
        createdAt: '2026-06-01T09:00:00.000Z',
      },
      {
        peerId: 'bob',
        content: 'Nice, postgres is a good fit for the api.',
        createdAt: '2026-06-01T09:01:00.000Z',
      },
    ])
    await insertEdge(t.store, {
      subject: 'api',
      predicate: 'uses',
      object: 'postgres',
      confidence: 0.9,
      evidence: [{ messageIds: [turns[0]!] }],
    })
    await insertNote(t.store, { id: 'n1', description: 'postgres backups', content: 'nightly at 02:00' })
    engine = createQueryEngine({ store: t.store, config: { searchLog: false } })
  })
  afterAll(() => t.close())

  it('packs profile, insights, facts with their reasons, turns with date and speaker, and notes', async () => {
    const result = await engine.augment('which database does the api use? postgres?', {
      workspaceId: WS,
      tokens: 1500,
      userMd: '# User\n- prefers pnpm',
      memoryMd: '# Memory\n- the api is on Fly.io',
    })
    const context = result.context ?? ''
    expect(
      context.startsWith(
        '## Profile\n# User\n- prefers pnpm\n\n## Insights\n# Memory\n- the api is on Fly.io',
      ),
    ).toBe(true)
    expect(context).toContain('- api uses postgres (why: ')
    expect(context).toContain('confidence 0.90)')
    expect(context).toContain('- [2026-06-01 ann] We moved the api to postgres last week.')
    expect(context).toContain('- [2026-06-01 bob] Nice, postgres is a good fit for the api.')
    expect(context).toContain('- Note: postgres backups — nightly at 02:00')
    // Ranked reading order: the items appear in the order of `ranked`.
    const positions = result.ranked.map((ref) => {
      const needle =
        ref.kind === 'hit'
          ? (result.hits.find((hit) => hit.id === ref.id)?.text ?? '')
          : ref.kind === 'graph'
            ? 'api uses postgres'
            : 'Note: postgres backups'
      return context.indexOf(needle)
    })
    expect(positions.every((p) => p >= 0)).toBe(true)
    expect([...positions].sort((a, b) => a - b)).toEqual(positions)
    expect(result.contextTokens).toBe((await loadTokenCounter())(context))
    expect(result.suppressed).toEqual([])
  })

  it('is null unless tokens is given, and refuses a bad budget', async () => {
    expect((await engine.augment('postgres', { workspaceId: WS })).context).toBeNull()
    for (const tokens of [0, -5, 1.5, Number.NaN, 2_000_000])
      await expect(engine.augment('postgres', { workspaceId: WS, tokens })).rejects.toMatchObject({
        code: 'INVALID_INPUT',
      })
  })

  it('never exceeds the budget, whatever the message and budget (property)', async () => {
    const count = await loadTokenCounter()
    const words = fc.constantFrom('api', 'postgres', 'database', 'use', 'which', '?', '🙂', '"', 'ann')
    await fc.assert(
      fc.asyncProperty(
        fc.array(words, { maxLength: 8 }).map((parts) => parts.join(' ')),
        fc.integer({ min: 1, max: 300 }),
        fc.string({ maxLength: 400 }),
        async (message, tokens, userMd) => {
          const result = await engine.augment(message, { workspaceId: WS, tokens, userMd, memoryMd: '' })
          expect(count(result.context ?? '')).toBeLessThanOrEqual(tokens)
          expect(result.contextTokens).toBeLessThanOrEqual(tokens)
        },
      ),
      { numRuns: 60 },
    )
  })
})
