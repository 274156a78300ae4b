import { createRulesExtractor, type Extractor } from '@hymem/extraction'
import { describe, expect, it } from 'vitest'
import { dream } from '../src/run/dream'
import { dreamWithRules, graphSnapshot, logLines, useTestStore, WS } from './harness'

/**
 * The rules as dreaming ran them before it read speakers: plain chunk text (so `user` / `team`), version
 * `rules-v1`. It also "extracts" one fact no re-read will find, standing for what cannot be re-attributed.
 */
function legacyExtractor(): Extractor {
  const rules = createRulesExtractor({ promptVersion: 'rules-v1' })
  return {
    ...rules,
    name: rules.name,
    promptVersion: rules.promptVersion,
    async extractFacts(input, opts) {
      const plain = await rules.extractFacts({ text: input.text }, opts)
      const extra = input.text.includes('vim')
        ? [{ subject: 'user', predicate: 'uses' as const, object: 'Fortran', polarity: 1 as const }]
        : []
      return { ...plain, triples: [...plain.triples, ...extra] }
    },
  }
}

describe('re-attribution of facts stored under `user` before speakers were read', () => {
  const t = useTestStore()

  it('supersedes each fact the re-read gives to a peer, and keeps what it cannot re-attribute', async () => {
    await logLines(t.store, 's1', [
      {
        peer: 'bob',
        role: 'user',
        content: 'I prefer vim for everything I write.',
        at: '2026-02-20T09:00:00Z',
      },
      { peer: 'carol', role: 'user', content: 'I prefer emacs for my notes.', at: '2026-02-20T09:01:00Z' },
    ])
    await logLines(t.store, 's2', [
      {
        peer: 'alice',
        role: 'user',
        content: 'We deploy to Fly, that is settled.',
        at: '2026-02-21T09:00:00Z',
      },
    ])
    const base = { store: t.store, workspaceId: WS, markdown: t.markdown }
    await dream({ ...base, extractor: legacyExtractor() })
    const before = (await graphSnapshot(t.store)).filter((e) => e.status === 'active').map((e) => e.triple)
    expect(before.sort()).toEqual([
      'team deploys_to fly',
      'user prefers emacs',
      'user prefers vim',
      'user uses fortran',
    ])

    const report = await dream({ ...base, extractor: createRulesExtractor() })
    expect(report.counts.factsReattributed).toBe(3)
    expect(report.counts.factsNotReattributed).toBe(1)
    const graph = await graphSnapshot(t.store)
    const state = Object.fromEntries(graph.map((e) => [e.triple, [e.status, e.supersededBy]]))
    expect(state).toMatchObject({
      'user prefers vim': ['stale', 'bob prefers vim'],
      'user prefers emacs': ['stale', 'carol prefers emacs'],
      'team deploys_to fly': ['stale', 'alice deploys_to fly'],
      'user uses fortran': ['active', null],
      'bob prefers vim': ['active', null],
      'carol prefers emacs': ['active', null],
      'alice deploys_to fly': ['active', null],
    })
    // Nothing left to move: a third cycle re-attributes nothing and keeps the one fact it cannot place.
    const again = await dream({ ...base, extractor: createRulesExtractor() })
    expect(again.counts.factsReattributed ?? 0).toBe(0)
    expect(again.counts.factsNotReattributed).toBe(1)
  })

  it("leaves the facts of a peer called `user` (the facade's default peer) where they are", async () => {
    await logLines(t.store, 's1', [
      { peer: 'user', role: 'user', content: 'We both use Linux at work.', at: '2026-02-20T09:00:00Z' },
      { peer: 'bob', role: 'user', content: 'I prefer vim for everything.', at: '2026-02-20T09:01:00Z' },
    ])
    const report = await dreamWithRules(t)
    expect(report.counts.factsReattributed ?? 0).toBe(0)
    const active = (await graphSnapshot(t.store)).filter((e) => e.status === 'active').map((e) => e.triple)
    expect(active.sort()).toEqual(['bob prefers vim', 'bob uses linux', 'user uses linux'])
  })
})
