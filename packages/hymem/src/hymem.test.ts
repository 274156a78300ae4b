import { existsSync, readFileSync, writeFileSync } from 'node:fs'
import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../test/harness'
import { HyMemError } from './errors'

let t: TestMemory
afterEach(async () => {
  await t?.close()
})

const CONVERSATION = [
  { role: 'user', content: 'We switched from MySQL to Postgres last month for the billing service.' },
  { role: 'assistant', content: 'Noted, Postgres it is for billing.' },
  { role: 'user', content: 'I prefer pnpm over npm for every project.' },
  { role: 'user', content: 'The billing service deploys to fly.io every Friday.' },
] as const

describe('capture → dream → augment on the rule-based extractor', () => {
  it('brings a fact stated in the conversation back as a graph fact, with its source message', async () => {
    t = await openTestMemory()
    expect(t.memory.extractor.name).toBe('rules')
    const captured = await t.memory.capture(CONVERSATION, { sessionId: 'chat-1' })
    expect(captured.sessionId).toBe('chat-1')
    expect(captured.messages.map((m) => m.peerId)).toEqual(['user', 'assistant', 'user', 'user'])
    expect(captured.dream).toBeNull()

    const report = await t.memory.dream()
    expect(report).toMatchObject({ status: 'ok', extractor: 'rules', errors: [] })
    expect(report.edgesUpserted).toBeGreaterThan(0)

    const context = await t.memory.augment('which database do we use for billing?')
    const facts = context.graphFacts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)
    expect(facts).toContain('user uses postgres')
    const postgres = context.graphFacts.find((f) => f.object === 'postgres' && f.predicate === 'uses')
    expect(postgres?.messageIds).toEqual([captured.messages[0]?.id])
    expect(postgres?.whyRetrieved.length).toBeGreaterThan(0)

    const keyword = await t.memory.augment('fly.io Friday')
    expect(keyword.hits.some((hit) => hit.text.includes('fly.io'))).toBe(true)
    expect(t.events.filter((e) => e.kind === 'dream')).toHaveLength(1)
  })

  it('dreams right after capture when asked, and writes USER.md for the profile', async () => {
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 32 }) })
    const { dream } = await t.memory.capture(CONVERSATION, { dream: true })
    expect(dream?.status).toBe('ok')
    const paths = t.memory.markdownPaths()
    expect(paths).toEqual({ userMd: join(t.root, 'USER.md'), memoryMd: join(t.root, 'MEMORY.md') })
    const profile = await t.memory.profile()
    expect(profile.userMd).toBe(readFileSync(paths.userMd, 'utf8'))
    expect(profile.userMd).toContain('pnpm')
    expect((await t.memory.stats()).counts.chunk_embeddings).toBeGreaterThan(0)
  })

  it('gives the profile entries and insights as typed data, with the hand-written text apart', async () => {
    t = await openTestMemory({ dream: { strongPreferenceConfidence: 0.5 } })
    const paths = t.memory.markdownPaths()
    writeFileSync(paths.userMd, '# User\n\nWritten by hand.\n')
    await t.memory.capture(CONVERSATION, { dream: true })
    const data = await t.memory.profileData()
    expect(data.entries.length).toBeGreaterThan(0)
    expect(data.entries.some((e) => e.statement.includes('pnpm'))).toBe(true)
    const userMd = readFileSync(paths.userMd, 'utf8')
    for (const entry of data.entries) expect(userMd).toContain(entry.statement)
    expect(data.insights.some((i) => i.kind === 'preference' && i.object === 'pnpm')).toBe(true)
    const memoryMd = readFileSync(paths.memoryMd, 'utf8')
    for (const insight of data.insights) expect(memoryMd).toContain(`- ${insight.text}`)
    expect(data.userNotes.trim()).toBe('# User\n\nWritten by hand.')
    expect(data.memoryNotes).not.toContain('HyMem:auto')
    expect((await t.memory.profileData({ workspaceId: 'empty' })).entries).toEqual([])
  })

  it('keeps workspaces apart, with their own Markdown files', async () => {
    t = await openTestMemory()
    await t.memory.capture(CONVERSATION, { workspaceId: 'team-b', dream: true })
    expect(t.memory.markdownPaths('team-b').userMd).toBe(join(t.root, 'workspaces', 'team-b', 'USER.md'))
    expect(t.memory.markdownPaths('../evil').userMd).toBe(
      join(t.root, 'workspaces', '%2E.%2Fevil', 'USER.md'),
    )
    expect(existsSync(t.memory.markdownPaths('team-b').userMd)).toBe(true)
    expect((await t.memory.augment('which database?')).graphFacts).toEqual([])
    const other = await t.memory.augment('which database?', { workspaceId: 'team-b' })
    expect(other.graphFacts.length).toBeGreaterThan(0)
  })
})

describe('logging messages', () => {
  it('logs single turns and batches into sessions, creating peers and membership', async () => {
    t = await openTestMemory()
    const one = await t.memory.log({ role: 'user', content: 'hello', createdAt: '2026-01-02T03:04:05Z' })
    expect(one).toMatchObject({
      sessionId: 'default',
      peerId: 'user',
      role: 'user',
      createdAt: '2026-01-02T03:04:05.000Z',
    })
    const batch = await t.memory.logMessages('s2', [
      { peerId: 'alice', role: 'user', content: 'a' },
      { peerId: 'bot', role: 'assistant', content: 'b' },
    ])
    expect(batch.map((m) => m.sessionId)).toEqual(['s2', 's2'])
    expect((await t.store.sessions.listPeers('default', 's2')).map((p) => p.peerId)).toEqual(['alice', 'bot'])
    expect(await t.memory.logMessages('s2', [])).toEqual([])
  })

  it('rejects bad turns before writing any of them', async () => {
    t = await openTestMemory()
    await expect(t.memory.log({ role: 'robot' as 'user', content: 'x' })).rejects.toThrow(
      /role must be one of/,
    )
    await expect(
      t.memory.capture([
        { role: 'user', content: 'fine' },
        { role: 'user', content: 42 as unknown as string },
      ]),
    ).rejects.toThrow('turn 2: content must be a string')
    await expect(t.memory.log({ role: 'user', content: 'x', createdAt: 'yesterday' })).rejects.toBeInstanceOf(
      HyMemError,
    )
    await expect(t.memory.log({ role: 'user', content: 'x', workspaceId: '' })).rejects.toBeInstanceOf(
      HyMemError,
    )
    expect((await t.memory.stats()).counts.messages).toBe(0)
  })
})

describe('graph maintenance', () => {
  it('retracts an edge so augment stops returning it', async () => {
    t = await openTestMemory()
    await t.memory.capture(CONVERSATION, { dream: true })
    const before = await t.memory.augment('which package manager do I prefer?')
    expect(before.graphFacts.some((f) => f.predicate === 'prefers' && f.object === 'pnpm')).toBe(true)
    expect(
      await t.memory.retract({ subject: 'user', predicate: 'prefers', object: 'pnpm', reason: 'test' }),
    ).toEqual({
      retracted: 1,
    })
    const after = await t.memory.augment('which package manager do I prefer?')
    expect(after.graphFacts.some((f) => f.predicate === 'prefers' && f.object === 'pnpm')).toBe(false)
    expect(await t.memory.retract({ subject: 'user', predicate: 'prefers', object: 'pnpm' })).toEqual({
      retracted: 0,
    })
  })

  it('registers aliases and folds existing graph facts into the canonical name', async () => {
    t = await openTestMemory()
    await t.memory.capture(CONVERSATION, { dream: true })
    expect((await t.memory.augment('which database?')).graphFacts.map((f) => f.object)).toContain('postgres')
    const result = await t.memory.alias('Postgres', 'PostgreSQL')
    expect(result).toMatchObject({ surface: 'postgres', canonical: 'postgresql' })
    expect(result.edgesRenamed + result.edgesMerged).toBeGreaterThan(0)
    const facts = (await t.memory.augment('which database do we use for billing?')).graphFacts
    expect(facts.map((f) => `${f.subject} ${f.predicate} ${f.object}`)).toContain('user uses postgresql')
    expect(facts.map((f) => f.object)).not.toContain('postgres')
    await t.memory.alias('PG', 'Postgres')
    const rows = (await t.store.aliases.listAll('default'))
      .filter((alias) => alias.surface === 'pg' || alias.surface === 'postgres')
      .map(({ surface, canonical }) => ({ surface, canonical }))
    expect(rows).toEqual([
      { surface: 'pg', canonical: 'postgresql' },
      { surface: 'postgres', canonical: 'postgresql' },
    ])
    await expect(t.memory.alias('  ', 'x')).rejects.toBeInstanceOf(HyMemError)
  })

  it('reports competing facts as conflicts', async () => {
    t = await openTestMemory()
    await t.memory.capture(
      [
        { role: 'user', content: 'I prefer tabs for indentation in every file.' },
        { role: 'user', content: 'Actually I reject tabs, they break our YAML files badly.' },
      ],
      { dream: true },
    )
    const conflicts = await t.memory.conflicts()
    expect(conflicts).toMatchObject([
      {
        kind: 'opposing_predicate',
        subject: 'user',
        predicate: 'prefers|rejects',
        object: 'tabs',
        edges: [{ predicate: 'prefers' }, { predicate: 'rejects' }],
      },
    ])
    expect(await t.memory.conflicts({ workspaceId: 'elsewhere' })).toEqual([])
  })
})

describe('background dreaming', () => {
  it('counts the real backlog, dreams on a forked connection and invalidates caches; close waits', async () => {
    t = await openTestMemory({ dreamCooldownMs: 0 })
    await t.memory.capture(CONVERSATION, { sessionId: 'a' })
    await t.memory.log({ role: 'user', content: 'one more', sessionId: 'b' })
    const before = await t.memory.queue.backlog()
    expect(before).toEqual({
      pendingMessages: 5,
      pendingChunks: 0,
      running: false,
      sessions: { a: { pendingMessages: 4, pendingChunks: 0 }, b: { pendingMessages: 1, pendingChunks: 0 } },
    })
    t.memory.queue.schedule()
    expect((await t.memory.queue.backlog()).running).toBe(true)
    await t.memory.close()
    const dreams = t.events.filter((e) => e.kind === 'dream')
    expect(dreams).toMatchObject([{ background: true, status: 'ok' }])
  })

  it('sees the background dream from the live instance (no stale cache)', async () => {
    t = await openTestMemory({ dreamCooldownMs: 0 })
    await t.memory.capture(CONVERSATION)
    expect((await t.memory.augment('which database?')).graphFacts).toEqual([])
    t.memory.queue.schedule()
    await waitFor(() => t.events.some((e) => e.kind === 'dream'))
    expect((await t.memory.queue.backlog()).pendingMessages).toBe(0)
    const after = await t.memory.augment('which database do we use?')
    expect(after.graphFacts.map((f) => f.object)).toContain('postgres')
  })

  it('collapses kicks within the cooldown and keeps ingesting while the fork dreams', async () => {
    t = await openTestMemory({ dreamCooldownMs: 60_000 })
    await t.memory.capture(CONVERSATION)
    expect(t.memory.queue.background()).toEqual({ running: false, dueAt: null })
    t.memory.queue.schedule()
    expect(t.memory.queue.background()).toEqual({ running: true, dueAt: null })
    t.memory.queue.schedule()
    t.memory.queue.schedule()
    const trailing = t.memory.queue.background().dueAt
    // The trailing kick waits out the 60 s cooldown from the running cycle's start.
    expect(Date.parse(trailing ?? '') - Date.now()).toBeGreaterThan(50_000)
    expect(t.memory.queue.background('other')).toEqual({ running: false, dueAt: null })
    const logged = await Promise.all(
      Array.from({ length: 20 }, (_, i) =>
        t.memory.log({ role: 'user', content: `live turn ${i}`, sessionId: 'live' }),
      ),
    )
    expect(logged).toHaveLength(20)
    await t.memory.close()
    expect(t.events.filter((e) => e.kind === 'dream')).toHaveLength(1)
    expect(t.events.filter((e) => e.kind === 'dream-failed')).toEqual([])
  })

  it('reports a foreground dream as running while it runs', async () => {
    t = await openTestMemory()
    await t.memory.capture(CONVERSATION)
    const checks: Promise<boolean>[] = []
    await t.memory.dream({
      onProgress: () => {
        checks.push(t.memory.queue.backlog().then((backlog) => backlog.running))
      },
    })
    const running = await Promise.all(checks)
    expect(running.length).toBeGreaterThan(0)
    expect(running.some(Boolean)).toBe(true)
    expect((await t.memory.queue.backlog()).running).toBe(false)
  })

  it('forks onto a second connection that shares clients and closes independently', async () => {
    t = await openTestMemory()
    const fork = await t.memory.fork()
    await fork.log({ role: 'user', content: 'from the fork' })
    expect(fork.extractor).toBe(t.memory.extractor)
    await fork.close()
    expect((await t.memory.stats()).counts.messages).toBe(1)
    await expect(fork.log({ role: 'user', content: 'x' })).rejects.toMatchObject({ code: 'CLOSED' })
  })
})

async function waitFor(condition: () => boolean, timeoutMs = 10_000): Promise<void> {
  const deadline = Date.now() + timeoutMs
  while (!condition()) {
    if (Date.now() > deadline) throw new Error('condition not met in time')
    await new Promise((resolve) => setTimeout(resolve, 20))
  }
}
