import { mkdirSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'

let t: TestServer
let ids: { id: number; publicId: string }[]

interface Context {
  messages: { content: string }[]
  summary: { content: string; summary_type: string; message_id: string; token_count: number } | null
}

interface Summaries {
  short_summary: { content: string; message_id: string; created_at: string } | null
  long_summary: { content: string; message_id: string } | null
}

async function context(query: string): Promise<Context> {
  const res = await t.call('GET', `/v3/workspaces/w/sessions/s/context?${query}`)
  expect(res.status).toBe(200)
  return (await res.json()) as Context
}

async function summaries(): Promise<Summaries> {
  const res = await t.call('GET', '/v3/workspaces/w/sessions/s/summaries')
  expect(res.status).toBe(200)
  return (await res.json()) as Summaries
}

const contents = (ctx: Context) => ctx.messages.map((m) => m.content)
const range = (from: number, to: number) => Array.from({ length: to - from + 1 }, (_, i) => `m${from + i}`)

/** A session of `n` messages of 10 tokens each, `m1` … `mn`. */
async function seed(n: number): Promise<void> {
  const messages = await t.coreStore.messages.insertBatch(
    'w',
    's',
    Array.from({ length: n }, (_, i) => ({ peerId: 'alice', content: `m${i + 1}`, tokenCount: 10 })),
  )
  ids = messages.map((m) => ({ id: m.id, publicId: m.publicId }))
}

/** What a dream writes: one summary of the session up to the `position`-th message. */
async function summarise(position: number, text = 'Alice counted the messages out loud.'): Promise<void> {
  await t.coreStore.sessions.setSummary('w', 's', { text, messageId: ids[position - 1]!.id })
}

async function configure(summary: Record<string, unknown>, level: 'session' | 'workspace' = 'session') {
  const path = level === 'session' ? '/v3/workspaces/w/sessions/s' : '/v3/workspaces/w'
  const res = await t.call('PUT', path, { configuration: { summary } })
  expect(res.status).toBe(200)
}

function writeProfile(memoryMd: string, userMd: string): void {
  const paths = t.memory.markdownPaths('w')
  mkdirSync(dirname(paths.memoryMd), { recursive: true })
  writeFileSync(paths.memoryMd, memoryMd)
  writeFileSync(paths.userMd, userMd)
}

beforeEach(async () => {
  t = await openTestServer()
})
afterEach(async () => {
  await t.close()
})

describe('session context token budget (§7.2)', () => {
  it('takes the newest messages that fit, oldest first', async () => {
    await seed(10)
    const ctx = await context('tokens=55&summary=false')
    expect(contents(ctx)).toEqual(range(6, 10))
    expect(ctx.summary).toBeNull()
    expect((await context('tokens=5')).messages).toEqual([])
  })

  it('spends the budget on representation and card first when peer_target is given', async () => {
    await seed(10)
    await t.call('PUT', '/v3/workspaces/w/peers/alice/card', { peer_card: ['NAME: Alice'] })
    const ctx = (await context('tokens=30&summary=false&peer_target=alice')) as Context & {
      peer_card: string[]
    }
    expect(ctx.peer_card).toEqual(['NAME: Alice'])
    expect(contents(ctx)).toEqual(['m9', 'm10'])
    const limited = (await context('summary=false&peer_target=alice&limit_to_session=true')) as Context & {
      peer_card: unknown
    }
    expect(limited.peer_card).toBeNull()
  })

  it('rejects tokens over the maximum with 422', async () => {
    await seed(1)
    expect((await t.call('GET', '/v3/workspaces/w/sessions/s/context?tokens=100001')).status).toBe(422)
  })
})

describe('summaries on Honcho cadence (short every 20 messages, long every 60)', () => {
  it('has no summary before 20 summarised messages, however often the session was dreamed', async () => {
    await seed(19)
    await summarise(19)
    writeProfile('# Memory\n\n- Alice counts slowly\n', '# User\n\n- Alice prefers tea\n')
    expect(await summaries()).toMatchObject({ short_summary: null, long_summary: null })
    const ctx = (await context('tokens=100')) as Context & {
      peer_representation: string
      peer_card: string[]
    }
    expect(ctx.summary).toBeNull()
    // Alice is the session's one human: her profile (as her card) and the insights come first.
    expect(ctx.peer_card).toEqual(['Alice prefers tea.'])
    expect(ctx.peer_representation).toBe('## Insights\n- Alice counts slowly.')
    expect(contents(ctx)).toEqual(range(20 - contents(ctx).length, 19))
    expect(contents(ctx).length).toBeGreaterThan(5)
  })

  it('a short summary covers the session up to its last multiple of 20 messages', async () => {
    await seed(45)
    await summarise(45)
    const { short_summary, long_summary } = await summaries()
    expect(short_summary).toMatchObject({
      content: 'Alice counted the messages out loud.',
      message_id: ids[39]!.publicId,
    })
    expect(short_summary?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    expect(long_summary).toBeNull()
    // What the last dream saw decides, not what arrived since.
    await summarise(39)
    expect((await summaries()).short_summary?.message_id).toBe(ids[19]!.publicId)
  })

  it('a long summary every 60 messages adds MEMORY.md and USER.md to the session summary', async () => {
    await seed(61)
    await summarise(61, 'Alice counted to sixty-one.')
    writeProfile('# Memory\n\n- Alice counts slowly\n', '# User\n\n- Alice prefers tea\n')
    const { short_summary, long_summary } = await summaries()
    expect(short_summary?.message_id).toBe(ids[59]!.publicId)
    expect(long_summary).toMatchObject({
      content: 'Alice counted to sixty-one.\n\nAlice counts slowly.\n\nAlice prefers tea.',
      message_id: ids[59]!.publicId,
    })
    const ctx = await context('tokens=100')
    expect(ctx.summary?.summary_type).toBe('honcho_chat_summary_long')
    expect(ctx.messages.length).toBeGreaterThan(0)
  })

  it('the session configuration overrides the workspace, key by key', async () => {
    await seed(25)
    await summarise(25)
    await configure({ messages_per_short_summary: 12, messages_per_long_summary: 24 }, 'workspace')
    expect((await summaries()).short_summary?.message_id).toBe(ids[23]!.publicId)
    expect((await summaries()).long_summary?.message_id).toBe(ids[23]!.publicId)
    await configure({ messages_per_short_summary: 10 })
    const { short_summary, long_summary } = await summaries()
    expect(short_summary?.message_id).toBe(ids[19]!.publicId)
    expect(long_summary?.message_id).toBe(ids[23]!.publicId)
  })

  it('disabled summaries (session or workspace) give none, in summaries and in context', async () => {
    await seed(25)
    await summarise(25)
    await configure({ enabled: false }, 'workspace')
    expect(await summaries()).toMatchObject({ short_summary: null, long_summary: null })
    expect((await context('tokens=100')).summary).toBeNull()
    await configure({ enabled: true })
    expect((await summaries()).short_summary).not.toBeNull()
    await configure({ enabled: false })
    expect((await context('tokens=100')).summary).toBeNull()
  })
})

describe('a summary never displaces messages that fit', () => {
  it('returns every message and no summary when the whole session fits', async () => {
    await seed(25)
    await summarise(25)
    const ctx = await context('tokens=250')
    expect(ctx.summary).toBeNull()
    expect(contents(ctx)).toEqual(range(1, 25))
  })

  it('stands a summary in for the older messages that do not fit, beside the newest that do', async () => {
    await seed(25)
    await summarise(25)
    const ctx = await context('tokens=100')
    expect(ctx.summary).toMatchObject({
      summary_type: 'honcho_chat_summary_short',
      message_id: ids[19]!.publicId,
    })
    const room = 100 - ctx.summary!.token_count
    expect(contents(ctx)).toEqual(range(26 - Math.floor(room / 10), 25))
  })

  it('keeps the newest messages that fit before its covered message too', async () => {
    await seed(25)
    await summarise(25)
    // 200 tokens: m9 … m25 fit beside the summary, more than the 6 messages from its covered message (m20) on.
    const ctx = await context('tokens=200')
    expect(ctx.summary?.message_id).toBe(ids[19]!.publicId)
    expect(contents(ctx)).toEqual(range(26 - Math.floor((200 - ctx.summary!.token_count) / 10), 25))
    expect(ctx.messages.length).toBeGreaterThan(6)
  })

  it('gives only messages when no summary fits 40 % of the budget', async () => {
    await seed(25)
    await summarise(25, `Alice counted ${'very '.repeat(60)}slowly.`)
    const ctx = await context('tokens=100')
    expect(ctx.summary).toBeNull()
    expect(contents(ctx)).toEqual(range(16, 25))
  })
})

describe('the profile and insights of the session’s peer', () => {
  it('come with the context of a session with one human, or with peer_target; not with two humans', async () => {
    await seed(3)
    writeProfile('# Memory\n\n- The team ships on Fridays\n', '# User\n\n- Alice prefers tea\n')
    type Full = Context & { peer_representation: string | null; peer_card: string[] | null }
    const sole = (await context('tokens=1000')) as Full
    expect(sole.peer_representation).toBe('## Insights\n- The team ships on Fridays.')
    expect(sole.peer_card).toEqual(['Alice prefers tea.'])
    expect(contents(sole)).toEqual(range(1, 3))

    // A stored card replaces the profile as the card: the profile then comes with the representation.
    await t.call('PUT', '/v3/workspaces/w/peers/alice/card', { peer_card: ['NAME: Alice'] })
    const carded = (await context('tokens=1000')) as Full
    expect(carded.peer_card).toEqual(['NAME: Alice'])
    expect(carded.peer_representation).toBe(
      '## Profile\n- Alice prefers tea.\n\n## Insights\n- The team ships on Fridays.',
    )

    await t.call('POST', '/v3/workspaces/w/sessions/s/peers', { bob: {} })
    const two = (await context('tokens=1000')) as Full
    expect([two.peer_representation, two.peer_card]).toEqual([null, null])
    const targeted = (await context('tokens=1000&peer_target=bob')) as Full
    expect(targeted.peer_representation).toContain('## Insights')
  })
})
