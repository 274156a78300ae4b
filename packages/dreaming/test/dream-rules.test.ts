import { readFileSync } from 'node:fs'
import { readSection } from '@hymem/core-store'
import { createRulesExtractor, RULES_VERSION } from '@hymem/extraction'
import { describe, expect, it } from 'vitest'
import type { DreamOptions } from '../src/types'
import {
  allEvidence,
  conversation,
  dreamWithRules,
  graphSnapshot,
  logLines,
  tableCounts,
  useTestStore,
  WS,
} from './harness'

const SESSION_1 = conversation('2026-02-20T09:00:00.000Z', [
  ['user', 'We use Postgres for the billing service.'],
  ['assistant', 'Got it, Postgres for billing.'],
  ['user', 'The api depends on redis. The worker depends on redis too.'],
  ['user', 'Redis depends on jemalloc, keep that in mind.'],
  ['user', 'I prefer tabs over spaces. Please be concise.'],
  ['user', 'ok'],
  ['user', 'To deploy: first run the tests, then build the image, finally push to fly.'],
])

describe('dream() end to end with the rules extractor', () => {
  const t = useTestStore()

  const run = (extra: Partial<DreamOptions> = {}) => dreamWithRules(t, extra)

  it('turns messages into chunks, a graph, a profile, insights, episodes, procedures and a summary', async () => {
    await logLines(t.store, 's1', SESSION_1)
    const report = await run()
    expect(report.status).toBe('ok')
    expect(report.errors).toEqual([])
    expect(report.chunksProcessed).toBe(report.chunksCreated)
    expect(report.chunksPending).toBe(0)

    const chunks = await t.store.chunks.listAll(WS)
    expect(chunks.length).toBeGreaterThan(0)
    for (const c of chunks) {
      expect(c.text.length).toBeGreaterThanOrEqual(30)
      expect(c.salienceReason).not.toBe('')
      expect(c.messageIds[0]).toBe(c.firstMessageId)
      expect(c.messageIds.at(-1)).toBe(c.lastMessageId)
    }
    // "ok" is not salient and breaks the run: no chunk contains it.
    expect(chunks.some((c) => /\bok\b$/m.test(c.text))).toBe(false)

    const graph = await graphSnapshot(t.store)
    const triples = graph.filter((e) => !e.derived).map((e) => e.triple)
    // The speaker, in the first person singular or as "we" (the speaker's team), is the author peer `alice`.
    expect(triples).toEqual(
      expect.arrayContaining([
        'alice uses postgres',
        'api depends_on redis',
        'worker depends_on redis',
        'redis depends_on jemalloc',
        'alice prefers tabs',
      ]),
    )
    const derived = graph.filter((e) => e.derived).map((e) => e.triple)
    expect(derived).toEqual(['api depends_on jemalloc', 'worker depends_on jemalloc'])
    const alias = (await t.store.aliases.listAll(WS)).filter((a) => a.surface === 'user')
    expect(alias.map((a) => a.canonical)).toEqual(['alice'])

    const evidence = (await allEvidence(t.store)).filter((e) => e.source === 'extraction')
    expect(evidence.length).toBeGreaterThan(0)
    for (const e of evidence) {
      expect(e.messageIds.length).toBeGreaterThan(0)
      expect(e.observedAt.startsWith('2026-02-20')).toBe(true)
    }

    const userMd = await readSection(t.markdown.userMdPath, 'profile')
    expect(userMd).toContain('User prefers tabs over spaces.')
    expect(userMd).toMatch(/\[style\].*concise/i)
    const memoryMd = readFileSync(t.markdown.memoryMdPath, 'utf8')
    expect(memoryMd).toContain('redis is a shared dependency of: api, worker')

    const episodes = await t.store.episodes.listAll(WS)
    expect(episodes.length).toBeGreaterThan(0)
    expect(episodes[0]!.messageIds.length).toBeGreaterThan(0)
    const procedures = await t.store.procedures.listAll(WS)
    expect(procedures).toHaveLength(1)
    expect(procedures[0]!.steps.map((s) => [s.order, s.text])).toEqual([
      [1, 'run the tests'],
      [2, 'build the image'],
      [3, 'push to fly'],
    ])
    const hits = await t.store.fullText.search('procedures', 'build the image', {
      workspaceId: WS,
      limit: 5,
      match: 'all',
    })
    expect(hits.map((h) => h.id)).toEqual([procedures[0]!.id])
    const session = await t.store.sessions.get(WS, 's1')
    expect(session?.summary).toMatch(/\w+ \w+ \w+/)
    expect(session?.summaryMessageId).toBe(chunks.at(-1)!.lastMessageId)

    const runs = await t.store.dreamRuns.recent(WS)
    expect(runs[0]).toMatchObject({
      status: 'ok',
      chunksProcessed: report.chunksProcessed,
      extractor: 'rules',
    })
  })

  it('is idempotent: a second cycle over the same data changes nothing', async () => {
    await logLines(t.store, 's1', SESSION_1)
    await run()
    const graph = await graphSnapshot(t.store)
    const counts = await tableCounts(t.store)
    const user = readFileSync(t.markdown.userMdPath, 'utf8')
    const memory = readFileSync(t.markdown.memoryMdPath, 'utf8')
    const again = await run()
    expect(again.status).toBe('ok')
    expect(again.chunksCreated).toBe(0)
    expect(again.chunksProcessed).toBe(0)
    expect(await graphSnapshot(t.store)).toEqual(graph)
    expect(await tableCounts(t.store)).toEqual(counts)
    expect(readFileSync(t.markdown.userMdPath, 'utf8')).toBe(user)
    expect(readFileSync(t.markdown.memoryMdPath, 'utf8')).toBe(memory)
  })

  it('chunks only new messages on the next cycle, with no duplicate chunks', async () => {
    await logLines(t.store, 's1', SESSION_1.slice(0, 3))
    await run()
    const first = await t.store.chunks.listAll(WS)
    await logLines(t.store, 's1', SESSION_1.slice(3))
    const second = await run()
    expect(second.chunksCreated).toBeGreaterThan(0)
    const all = await t.store.chunks.listAll(WS)
    expect(all.length).toBe(first.length + second.chunksCreated)
    const spans = new Set(all.map((c) => `${c.firstMessageId}-${c.lastMessageId}`))
    expect(spans.size).toBe(all.length)
  })

  it('reprocesses every chunk when the prompt version is bumped, without duplicating evidence', async () => {
    await logLines(t.store, 's1', SESSION_1)
    const v1 = await run()
    const graph = await graphSnapshot(t.store)
    const v2 = await run({ extractor: createRulesExtractor({ promptVersion: `${RULES_VERSION}-next` }) })
    expect(v2.chunksProcessed).toBe(v1.chunksProcessed)
    const processed = await t.store.chunks.listProcessed(WS)
    expect(new Set(processed.map((p) => p.promptVersion))).toEqual(
      new Set([RULES_VERSION, `${RULES_VERSION}-next`]),
    )
    // Evidence is once per (edge, chunk): the same chunks re-read give the same counters.
    expect((await graphSnapshot(t.store)).map((e) => [e.triple, e.pos, e.neg])).toEqual(
      graph.map((e) => [e.triple, e.pos, e.neg]),
    )
  })

  it('gives each author of a multi-author chunk their own facts, never `user`', async () => {
    await logLines(t.store, 's1', [
      {
        peer: 'bob',
        role: 'user',
        content: 'I prefer vim for everything I write.',
        at: '2026-02-20T09:00:00Z',
      },
      { peer: 'carol', role: 'user', content: 'I prefer emacs for my notes.', at: '2026-02-20T09:01:00Z' },
      { peer: 'hermes', role: 'assistant', content: 'I prefer nano myself.', at: '2026-02-20T09:02:00Z' },
    ])
    await run()
    const chunks = await t.store.chunks.listAll(WS)
    expect(chunks).toHaveLength(1)
    const triples = (await graphSnapshot(t.store)).map((e) => e.triple)
    expect(triples.sort()).toEqual(['bob prefers vim', 'carol prefers emacs'])
    const markers = await t.store.markers.listAll(WS)
    expect(markers.map((m) => [m.peerId, m.statement]).sort()).toEqual([
      ['bob', 'User prefers vim.'],
      ['carol', 'User prefers emacs.'],
    ])
    expect(await t.store.aliases.listAll(WS)).toEqual([])
    // USER.md: one part per peer inside dreaming's section.
    const profile = await readSection(t.markdown.userMdPath, 'profile')
    expect(profile).toContain('### bob\n\n- [preference] User prefers vim.')
    expect(profile).toContain('### carol\n\n- [preference] User prefers emacs.')
  })

  it('resolves a reported statement and a named peer to that peer', async () => {
    await t.store.peers.getOrCreate(WS, 'bob', { metadata: { name: 'Bob' } })
    await logLines(t.store, 's1', [
      { peer: 'alice', role: 'user', content: 'Bob says he prefers Go.', at: '2026-02-20T09:00:00Z' },
      { peer: 'alice', role: 'user', content: 'I prefer Rust for the CLI.', at: '2026-02-20T09:01:00Z' },
    ])
    await run()
    const triples = (await graphSnapshot(t.store)).map((e) => e.triple)
    expect(triples.sort()).toEqual(['alice prefers rust', 'bob prefers go'])
  })
})
