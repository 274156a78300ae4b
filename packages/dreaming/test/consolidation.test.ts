import { readFileSync, writeFileSync } from 'node:fs'
import { type NewEdge, readSection } from '@hymem/core-store'
import { describe, expect, it } from 'vitest'
import { readProfileData } from '../src/profile-data'
import { readInsights, refreshInsights } from '../src/steps/insights'
import { consolidateProfile } from '../src/steps/profile'
import { applyRetention } from '../src/steps/retention'
import { dreamWithRules, graphSnapshot, type Line, logLines, stepContext, useTestStore, WS } from './harness'

describe('phase 2 and retention', () => {
  const t = useTestStore()

  const marker = (kind: 'preference' | 'rejection', statement: string, day: number) => ({
    peerId: 'alice',
    chunkId: null,
    kind,
    statement,
    observedAt: `2026-02-${String(day).padStart(2, '0')}T10:00:00.000Z`,
  })

  it('profile: repeats reinforce, contradictions are separate entries, the weakest go past the cap', async () => {
    const markers = [
      ...Array.from({ length: 16 }, (_, i) => marker('preference', `User prefers tool ${i}.`, 1 + i)),
      marker('preference', 'User prefers tabs.', 17),
      marker('preference', 'user prefers TABS', 18),
      marker('preference', 'User prefers tabs!', 19),
      marker('rejection', 'User rejects tabs.', 20),
    ]
    await t.store.transaction(async (tx) => {
      for (const m of markers) await tx.markers.add(WS, m)
    })
    const ctx = stepContext(t)
    await consolidateProfile(ctx)
    const entries = (await t.store.markers.profileEntries(WS)).map((e) => ({
      kind: e.kind,
      statement: e.statement,
      posEvidence: e.posEvidence,
    }))
    expect(entries).toHaveLength(16)
    expect(entries).toContainEqual({ kind: 'preference', statement: 'User prefers tabs.', posEvidence: 3 })
    expect(entries).toContainEqual({ kind: 'rejection', statement: 'User rejects tabs.', posEvidence: 1 })
    // 18 entries: the two weakest (one mention, seen earliest) were dropped.
    expect(entries.map((e) => e.statement)).not.toContain('User prefers tool 1.')
    expect(entries.map((e) => e.statement)).toContain('User prefers tool 2.')
    expect(ctx.tally.counts).toMatchObject({
      markersConsolidated: 20,
      profileReinforced: 2,
      profileDropped: 2,
    })
    const section = await readSection(t.markdown.userMdPath, 'profile')
    expect(section?.split('\n')[0]).toBe('- [preference] User prefers tabs. ×3')
    expect(section).toContain('- [rejection] User rejects tabs.')
    // Consolidated markers are not consolidated twice.
    await consolidateProfile(stepContext(t))
    const tabs = (await t.store.markers.profileEntries(WS)).find((e) => e.statement === 'User prefers tabs.')
    expect(tabs?.posEvidence).toBe(3)
  })

  it('insights: hubs over direct confident edges, strong preferences, contradictions, capped', async () => {
    const edge = (
      subject: string,
      predicate: string,
      object: string,
      confidence: number,
      extra: Partial<NewEdge> = {},
    ): NewEdge => ({
      subject,
      predicate,
      object,
      confidence,
      posEvidence: 3,
      negEvidence: 0,
      seenAt: '2026-02-01',
      ...extra,
    })
    const edges = [
      edge('api', 'depends_on', 'uv', 0.8),
      edge('ci', 'depends_on', 'uv', 0.8),
      edge('docs', 'depends_on', 'uv', 0.8),
      edge('api', 'depends_on', 'redis', 0.8),
      edge('ci', 'depends_on', 'redis', 0.6), // not above 0.6
      edge('web', 'depends_on', 'redis', 0.8, { derived: true }), // derived: not a hub source
      edge('api', 'depends_on', 'nginx', 0.8),
      edge('web', 'depends_on', 'nginx', 0.8, { validTo: '2026-02-02', status: 'stale' }),
      edge('alice', 'prefers', 'vim', 0.75),
      edge('alice', 'rejects', 'java', 0.9),
      edge('alice', 'avoids', 'yaml', 0.7), // not above 0.7
      edge('api', 'uses', 'mysql', 0.5, { posEvidence: 2, negEvidence: 2 }),
    ]
    await t.store.transaction(async (tx) => {
      for (const e of edges) await tx.edges.insert(WS, e)
    })
    const insights = await readInsights(t.store, WS)
    expect(insights.map((i) => i.text)).toEqual([
      'uv is a shared dependency of: api, ci, docs',
      'alice rejects java (confidence 0.90)',
      'alice prefers vim (confidence 0.75)',
      'contradiction: api uses mysql (2 for, 2 against)',
    ])
    expect(insights.map(({ text: _, ...facts }) => facts)).toEqual([
      { kind: 'dependency_hub', object: 'uv', subjects: ['api', 'ci', 'docs'] },
      { kind: 'rejection', subject: 'alice', predicate: 'rejects', object: 'java', confidence: 0.9 },
      { kind: 'preference', subject: 'alice', predicate: 'prefers', object: 'vim', confidence: 0.75 },
      {
        kind: 'contradiction',
        subject: 'api',
        predicate: 'uses',
        object: 'mysql',
        posEvidence: 2,
        negEvidence: 2,
      },
    ])
    expect(await readInsights(t.store, WS, { insightsMaxEntries: 2 })).toHaveLength(2)
  })

  it('profile data: the entries and insights the files show, typed, with the hand-written rest', async () => {
    writeFileSync(t.markdown.userMdPath, '# User\n\nWritten by hand.\n')
    await t.store.transaction(async (tx) => {
      await tx.markers.add(WS, marker('preference', 'User prefers tabs.', 1))
      await tx.markers.add(WS, marker('preference', 'user prefers tabs!', 2))
      await tx.edges.insert(WS, {
        subject: 'alice',
        predicate: 'prefers',
        object: 'vim',
        confidence: 0.9,
        posEvidence: 3,
        seenAt: '2026-02-01',
      })
    })
    const ctx = stepContext(t)
    await consolidateProfile(ctx)
    await refreshInsights(ctx)
    const data = await readProfileData(t.store, WS, { markdown: t.markdown })
    expect(data.entries.map((e) => [e.peerId, e.kind, e.statement, e.posEvidence])).toEqual([
      ['alice', 'preference', 'User prefers tabs.', 2],
    ])
    expect(await readSection(t.markdown.userMdPath, 'profile')).toBe('- [preference] User prefers tabs. ×2')
    expect(data.insights.map((i) => `- ${i.text}`).join('\n')).toBe(
      await readSection(t.markdown.memoryMdPath, 'insights'),
    )
    expect(data.insights).toEqual([expect.objectContaining({ kind: 'preference', object: 'vim' })])
    expect(data.userNotes.trim()).toBe('# User\n\nWritten by hand.')
    expect(data.memoryNotes.trim()).toBe('')
    const strict = { strongPreferenceConfidence: 0.95 }
    expect((await readProfileData(t.store, WS, { markdown: t.markdown, config: strict })).insights).toEqual(
      [],
    )
  })

  it('retention evicts the oldest processed chunks over the cap, never the last evidence of an active edge', async () => {
    const old = (content: string, day: number): Line => ({
      peer: 'alice',
      role: 'user',
      content,
      at: `2025-10-${String(day).padStart(2, '0')}T10:00:00.000Z`,
    })
    const filler: Line = { peer: 'alice', role: 'user', content: 'ok', at: '2025-10-20T00:00:00.000Z' }
    await logLines(t.store, 's1', [
      old('The api depends on redis, that is settled.', 1),
      { ...filler, at: '2025-10-01T10:01:00.000Z' },
      old('The api depends on redis, still true today.', 2),
      { ...filler, at: '2025-10-02T10:01:00.000Z' },
      old('The worker depends on kafka, that is settled.', 3),
    ])
    await dreamWithRules(t)
    const before = await t.store.chunks.listAll(WS)
    expect(before).toHaveLength(3)
    const ctx = stepContext(t, { config: { maxChunks: 0 } })
    await applyRetention(ctx)
    expect(ctx.tally.counts.chunksEvicted).toBe(1)
    expect((await t.store.chunks.listAll(WS)).map((c) => c.id)).toEqual([before[1]!.id, before[2]!.id])
    const graph = await graphSnapshot(t.store)
    expect(graph.find((e) => e.triple === 'api depends_on redis')).toMatchObject({ pos: 2, status: 'active' })
    // Recent chunks are always kept.
    const recent = stepContext(t, { config: { maxChunks: 0, retentionDays: 365 } })
    await applyRetention(recent)
    expect(recent.tally.counts.chunksEvicted).toBe(0)
    expect(readFileSync(t.markdown.memoryMdPath, 'utf8')).toContain('HyMem:auto:insights:start')
  })
})
