import type { Honcho, Message } from '@honcho-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer, waitForQueue } from './live'

let live: LiveServer
let honcho: Honcho

beforeAll(async () => {
  live = await startLiveServer({ backgroundDreaming: true })
  honcho = live.client('cadence')
})
afterAll(async () => {
  await live.stop()
})

const PEOPLE = ['Ana', 'Bruno', 'Carla', 'Duarte', 'Eva']
const PROJECTS = [
  'the billing service',
  'the mobile app',
  'the data warehouse',
  'the search index',
  'the CI pipeline',
]

/** `n` messages from Alice, each about a colleague and a project. */
async function converse(sessionId: string, n: number): Promise<Message[]> {
  const session = await honcho.session(sessionId)
  const alice = await honcho.peer('alice')
  const added = await session.addMessages(
    Array.from({ length: n }, (_, i) =>
      alice.message(
        `Day ${i + 1}: ${PEOPLE[i % 5]} says ${PROJECTS[Math.floor(i / 5) % 5]} runs on Postgres ${12 + (i % 5)}.`,
      ),
    ),
  )
  await waitForQueue(honcho)
  return added
}

const tokensOf = (messages: readonly { tokenCount: number }[]) =>
  messages.reduce((sum, m) => sum + m.tokenCount, 0)

describe('SDK contract: session summaries follow Honcho cadence', () => {
  it('three messages: context() returns all three and no summary, summaries() has none', async () => {
    const added = await converse('three', 3)
    // The dream did summarise the session: the cadence, not a missing summary, keeps it out.
    expect((await live.memory.sessions.get('cadence', 'three'))?.summary).toBeTruthy()
    const session = await honcho.session('three')
    const context = await session.context({ tokens: 2000 })
    expect(context.messages.map((m) => m.id)).toEqual(added.map((m) => m.id))
    expect(context.summary).toBeNull()
    const summaries = await session.summaries()
    expect(summaries.shortSummary).toBeNull()
    expect(summaries.longSummary).toBeNull()
  })

  it('25 messages: a short summary of the first 20; a small budget gets it beside the newest that fit', async () => {
    const added = await converse('long', 25)
    const session = await honcho.session('long')
    const summaries = await session.summaries()
    expect(summaries.shortSummary?.messageId).toBe(added[19]!.id)
    expect(summaries.shortSummary?.content.length).toBeGreaterThan(0)
    expect(summaries.longSummary).toBeNull()

    const whole = await session.context({ tokens: 100_000 })
    expect(whole.messages).toHaveLength(25)
    expect(whole.summary).toBeNull()

    const budget = Math.floor(tokensOf(added) / 2)
    const tight = await session.context({ tokens: budget })
    expect(tight.summary?.messageId).toBe(added[19]!.id)
    const room = budget - tight.summary!.tokenCount
    const kept = tight.messages.length
    expect(kept).toBeGreaterThan(0)
    expect(tight.messages.map((m) => m.id)).toEqual(added.slice(25 - kept).map((m) => m.id))
    expect(tokensOf(tight.messages)).toBeLessThanOrEqual(room)
    // Every message that fits is there: the next older one would not.
    expect(tokensOf(added.slice(24 - kept))).toBeGreaterThan(room)
  })

  it('the session configuration changes the cadence; the workspace turns summaries off', async () => {
    const session = await honcho.session('tuned')
    await session.addMessages([
      (await honcho.peer('alice')).message('I prefer pnpm over npm for every project.'),
    ])
    const added = await converse('tuned', 24)
    await session.setConfiguration({ summary: { messagesPerShortSummary: 12, messagesPerLongSummary: 24 } })
    const tuned = await session.summaries()
    // 25 messages read: the 24th closes both intervals (12 and 24).
    expect(tuned.shortSummary?.messageId).toBe(added[22]!.id)
    expect(tuned.longSummary?.messageId).toBe(added[22]!.id)
    expect(tuned.longSummary?.content).toContain(tuned.shortSummary!.content)
    // The long one carries the workspace's profile as plain prose, without HyMem's section markers.
    expect(tuned.longSummary?.content).toContain('Preference:')
    expect(tuned.longSummary?.content).not.toContain('<!--')

    await honcho.setConfiguration({ summary: { enabled: false } })
    const off = await session.summaries()
    expect(off.shortSummary).toBeNull()
    expect(off.longSummary).toBeNull()
    const budget = Math.floor(tokensOf(added) / 2)
    const context = await session.context({ tokens: budget })
    expect(context.summary).toBeNull()
    expect(tokensOf(context.messages)).toBeLessThanOrEqual(budget)
    // Alice's profile and the insights (she is the one human) take their share; the newest messages fill the rest.
    expect(context.peerRepresentation).toContain('## Explicit Observations')
    expect(context.messages.map((m) => m.id)).toEqual(added.slice(-context.messages.length).map((m) => m.id))
  })
})
