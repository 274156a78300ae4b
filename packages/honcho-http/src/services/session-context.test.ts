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

async function context(query: string): Promise<Context> {
  const res = await t.call('GET', `/v3/workspaces/w/sessions/s/context?${query}`)
  expect(res.status).toBe(200)
  return (await res.json()) as Context
}

beforeEach(async () => {
  t = await openTestServer()
  const messages = await t.memory.store.messages.insertBatch(
    'w',
    's',
    Array.from({ length: 10 }, (_, i) => ({ peerId: 'alice', content: `m${i + 1}`, tokenCount: 10 })),
  )
  ids = messages.map((m) => ({ id: m.id, publicId: m.publicId }))
})
afterEach(async () => {
  await t.close()
})

function writeProfile(memoryMd: string, userMd: string): void {
  const paths = t.memory.markdownPaths('w')
  mkdirSync(dirname(paths.memoryMd), { recursive: true })
  writeFileSync(paths.memoryMd, memoryMd)
  writeFileSync(paths.userMd, userMd)
}

describe('session context token budget (§7.2)', () => {
  it('takes the newest messages that fit, oldest first', async () => {
    const ctx = await context('tokens=55&summary=false')
    expect(ctx.messages.map((m) => m.content)).toEqual(['m6', 'm7', 'm8', 'm9', 'm10'])
    expect(ctx.summary).toBeNull()
    expect((await context('tokens=5')).messages).toEqual([])
  })

  it('uses the short summary when only it fits 40 %, and starts at its covered message', async () => {
    await t.memory.store.sessions.setSummary('w', 's', {
      text: 'Alice counted to five.',
      messageId: ids[5]!.id,
    })
    writeProfile(`# Memory\n\n${'- a long insight about many things\n'.repeat(40)}`, '# User\n\n- Alice\n')
    const ctx = await context('tokens=100')
    expect(ctx.summary).toMatchObject({
      content: 'Alice counted to five.',
      summary_type: 'honcho_chat_summary_short',
      message_id: ids[5]!.publicId,
    })
    expect(ctx.messages.map((m) => m.content)).toEqual(['m6', 'm7', 'm8', 'm9', 'm10'])
  })

  it('prefers the long summary (session summary + MEMORY.md + USER.md) when it fits', async () => {
    await t.memory.store.sessions.setSummary('w', 's', {
      text: 'Alice counted to five.',
      messageId: ids[5]!.id,
    })
    writeProfile('# Memory\n\n- Alice counts slowly\n', '# User\n\n- Alice prefers tea\n')
    const ctx = await context('tokens=1000')
    expect(ctx.summary?.summary_type).toBe('honcho_chat_summary_long')
    expect(ctx.summary?.content).toContain('Alice counted to five.')
    expect(ctx.summary?.content).toBe('Alice counted to five.\n\nAlice counts slowly.\n\nAlice prefers tea.')
    expect(ctx.messages.map((m) => m.content)).toEqual(['m6', 'm7', 'm8', 'm9', 'm10'])
    const summaries = (await (await t.call('GET', '/v3/workspaces/w/sessions/s/summaries')).json()) as {
      short_summary: { created_at: string } | null
      long_summary: unknown
    }
    expect(summaries.short_summary?.created_at).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}Z$/)
    expect(summaries.long_summary).not.toBeNull()
  })

  it('gives the profile as a long summary when the session has no summary yet, from the session start', async () => {
    writeProfile('# Memory\n\n- Alice counts slowly\n', '')
    const ctx = await context('tokens=1000')
    expect(ctx.summary?.content).toBe('Alice counts slowly.')
    expect(ctx.messages).toHaveLength(10)
  })

  it('spends the budget on representation and card first when peer_target is given', async () => {
    await t.call('PUT', '/v3/workspaces/w/peers/alice/card', { peer_card: ['NAME: Alice'] })
    const ctx = (await context('tokens=30&summary=false&peer_target=alice')) as Context & {
      peer_card: string[]
    }
    expect(ctx.peer_card).toEqual(['NAME: Alice'])
    expect(ctx.messages.map((m) => m.content)).toEqual(['m9', 'm10'])
    const limited = (await context('summary=false&peer_target=alice&limit_to_session=true')) as Context & {
      peer_card: unknown
    }
    expect(limited.peer_card).toBeNull()
  })

  it('rejects tokens over the maximum with 422', async () => {
    expect((await t.call('GET', '/v3/workspaces/w/sessions/s/context?tokens=100001')).status).toBe(422)
  })
})
