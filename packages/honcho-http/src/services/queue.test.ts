import { createRulesExtractor, type Extractor } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'
import { createHonchoApp } from '../app'
import { QueueTracker } from './queue-tracker'

interface Units {
  total_work_units: number
  completed_work_units: number
  in_progress_work_units: number
  pending_work_units: number
}
type Status = Units & { sessions: Record<string, Units & { session_id: string }> | null }

/** The rules extractor, except that fact extraction waits until `release()`: holds a dream open. */
function gatedExtractor(): { extractor: Extractor; release: () => void } {
  const rules = createRulesExtractor()
  let release = () => {}
  const gate = new Promise<void>((resolve) => {
    release = resolve
  })
  const extractor: Extractor = {
    name: rules.name,
    promptVersion: rules.promptVersion,
    extractFacts: async (input, options) => {
      await gate
      return rules.extractFacts(input, options)
    },
    extractEpisodes: (input, options) => rules.extractEpisodes(input, options),
    extractProcedures: (input, options) => rules.extractProcedures(input, options),
    summarizeSession: (input, options) => rules.summarizeSession(input, options),
  }
  return { extractor, release }
}

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

async function status(server: TestServer, query = ''): Promise<Status> {
  const res = await server.call('GET', `/v3/workspaces/qa-ws/queue/status${query}`)
  expect(res.status).toBe(200)
  return (await res.json()) as Status
}

async function post(server: TestServer, session: string, count: number): Promise<void> {
  const messages = Array.from({ length: count }, (_, i) => ({
    peer_id: 'alice',
    content: `Message ${i} of ${session}: I live in Porto and I prefer tea.`,
  }))
  const res = await server.call('POST', `/v3/workspaces/qa-ws/sessions/${session}/messages`, { messages })
  expect(res.status).toBe(201)
}

/** Polls until `done(status)`; no wall-clock assertion, only a bound on the number of polls. */
async function pollUntil(server: TestServer, done: (s: Status) => boolean, seen: Status[]): Promise<Status> {
  for (let i = 0; i < 2000; i++) {
    const current = await status(server)
    seen.push(current)
    if (done(current)) return current
    await new Promise((resolve) => setTimeout(resolve, 5))
  }
  throw new Error(`queue never reached the expected state: ${JSON.stringify(seen.at(-1))}`)
}

function expectConsistent(seen: readonly Status[]): void {
  let previousTotal = 0
  for (const s of seen) {
    expect(s.total_work_units).toBe(s.pending_work_units + s.in_progress_work_units + s.completed_work_units)
    expect(s.total_work_units).toBeGreaterThanOrEqual(previousTotal)
    previousTotal = s.total_work_units
    const listed = Object.values(s.sessions ?? {})
    const sum = (key: keyof Units) => listed.reduce((n, entry) => n + entry[key], 0)
    expect(sum('pending_work_units')).toBe(s.pending_work_units)
    expect(sum('in_progress_work_units')).toBe(s.in_progress_work_units)
    for (const entry of listed) {
      expect(entry.total_work_units).toBe(
        entry.pending_work_units + entry.in_progress_work_units + entry.completed_work_units,
      )
    }
  }
}

describe('queue status while a dream runs (W6)', () => {
  it('reports the held dream as in progress, then completes it without shrinking the total', async () => {
    const { extractor, release } = gatedExtractor()
    const server = await openTestServer({ memory: { extractor } })
    t = server
    await post(server, 'sess-1', 4)
    expect(await status(server)).toMatchObject({
      total_work_units: 4,
      pending_work_units: 4,
      in_progress_work_units: 0,
      completed_work_units: 0,
    })
    server.memory.queue.schedule('qa-ws')
    const seen: Status[] = []
    // The dream chunks the messages, then waits in fact extraction: 3 done, the dream's unit in progress.
    const held = await pollUntil(server, (s) => s.completed_work_units === 3, seen)
    expect(held).toMatchObject({ total_work_units: 4, in_progress_work_units: 1, pending_work_units: 0 })
    expect(held.sessions?.['sess-1']).toMatchObject({ in_progress_work_units: 1, completed_work_units: 3 })
    expect(await status(server, '?session_id=sess-1')).toMatchObject({
      total_work_units: 4,
      in_progress_work_units: 1,
      sessions: null,
    })
    for (let i = 0; i < 5; i++) seen.push(await status(server))
    expect(seen.at(-1)).toMatchObject({ in_progress_work_units: 1, total_work_units: 4 })
    release()
    const done = await pollUntil(server, (s) => s.in_progress_work_units + s.pending_work_units === 0, seen)
    expect(done).toMatchObject({ total_work_units: 4, completed_work_units: 4, sessions: null })
    expectConsistent(seen)
  })

  it('3 × 100 messages: in progress while the dream runs, totals never decrease, sessions add up', async () => {
    const { extractor, release } = gatedExtractor()
    const server = await openTestServer({ memory: { extractor } })
    t = server
    for (const session of ['big-1', 'big-2', 'big-3']) await post(server, session, 100)
    const seen: Status[] = [await status(server)]
    expect(seen[0]).toMatchObject({ total_work_units: 300, pending_work_units: 300 })
    expect(Object.keys(seen[0]?.sessions ?? {}).sort()).toEqual(['big-1', 'big-2', 'big-3'])
    server.memory.queue.schedule('qa-ws')
    const running = await pollUntil(server, (s) => s.in_progress_work_units > 0, seen)
    expect(running.pending_work_units).toBe(0)
    // Every message chunked; the chunks wait in the held extraction, one unit each, in progress.
    for (let i = 0; i < 2000 && (await server.memory.queue.backlog('qa-ws')).pendingMessages > 0; i++)
      await new Promise((resolve) => setTimeout(resolve, 5))
    const { pendingChunks } = await server.memory.queue.backlog('qa-ws')
    expect(pendingChunks).toBeGreaterThan(0)
    const chunked = await status(server)
    seen.push(chunked)
    expect(chunked).toMatchObject({
      pending_work_units: 0,
      in_progress_work_units: pendingChunks,
      completed_work_units: 300 - pendingChunks,
    })
    await post(server, 'big-4', 100)
    const withNewWork = await status(server)
    seen.push(withNewWork)
    expect(withNewWork.total_work_units).toBe(400)
    expect(withNewWork.sessions?.['big-4']).toMatchObject({ total_work_units: 100 })
    release()
    server.memory.queue.schedule('qa-ws')
    const done = await pollUntil(server, (s) => s.in_progress_work_units + s.pending_work_units === 0, seen)
    expect(done).toMatchObject({ total_work_units: 400, completed_work_units: 400, sessions: null })
    expect(seen.some((s) => s.in_progress_work_units > 0)).toBe(true)
    expectConsistent(seen)
  })
})

describe('queue status with chunks left unextracted', () => {
  it('keeps a unit pending while a chunk waits for extraction, until a dream extracts it', async () => {
    const rules = createRulesExtractor()
    let down = true
    const extractor: Extractor = {
      ...rules,
      extractFacts: async (input, options) => {
        if (down) throw new Error('model unavailable')
        return rules.extractFacts(input, options)
      },
    }
    const server = await openTestServer({ memory: { extractor } })
    t = server
    await post(server, 'sess-1', 4)
    server.memory.queue.schedule('qa-ws')
    const seen: Status[] = []
    // The dream chunks the messages but fails to extract them: the chunk keeps the session waiting.
    const stuck = await pollUntil(
      server,
      (s) => s.completed_work_units === 3 && s.in_progress_work_units === 0,
      seen,
    )
    expect(stuck).toMatchObject({ total_work_units: 4, pending_work_units: 1 })
    expect(stuck.sessions?.['sess-1']).toMatchObject({ pending_work_units: 1, completed_work_units: 3 })
    expect((await server.memory.queue.backlog('qa-ws')).pendingChunks).toBeGreaterThan(0)
    down = false
    server.memory.queue.schedule('qa-ws')
    const done = await pollUntil(server, (s) => s.in_progress_work_units + s.pending_work_units === 0, seen)
    expect(done).toMatchObject({ total_work_units: 4, completed_work_units: 4, sessions: null })
    expect((await server.memory.queue.backlog('qa-ws')).pendingChunks).toBe(0)
    expectConsistent(seen)
  })
})

describe('queue totals across servers', () => {
  it('deleted messages count as completed work, and a second server on the same database reports the same', async () => {
    const server = await openTestServer()
    t = server
    const res = await server.call('POST', '/v3/workspaces/qa-ws/sessions/s1/messages', {
      messages: Array.from({ length: 5 }, (_, i) => ({ peer_id: 'alice', content: `note ${i}` })),
    })
    const ids = ((await res.json()) as { id: string }[]).map((message) => message.id)
    expect(await status(server)).toMatchObject({ total_work_units: 5, pending_work_units: 5 })

    await server.memory.erase.messages(ids.slice(0, 2), { workspaceId: 'qa-ws', wait: true })
    // Another server (its own app and queue memory) that never saw the larger total.
    const second = createHonchoApp({ memory: server.memory, backgroundDreaming: false })
    const fromSecond = (await (await second.request('/v3/workspaces/qa-ws/queue/status')).json()) as Status
    expect(fromSecond).toMatchObject({ total_work_units: 5, completed_work_units: 2, pending_work_units: 3 })
    expect(await status(server)).toEqual(fromSecond)
    const session = (await (
      await second.request('/v3/workspaces/qa-ws/queue/status?session_id=s1')
    ).json()) as Status
    expect(session).toMatchObject({ total_work_units: 5, completed_work_units: 2, pending_work_units: 3 })
    await second.idle()
  })
})

describe('QueueTracker', () => {
  it('a dream covers the sessions waiting now or at the previous poll, else the newest session', async () => {
    const tracker = new QueueTracker()
    await tracker.observe('w', false, new Set(['a']), async () => 'unused')
    await tracker.observe('w', true, new Set(['b']), async () => 'unused')
    expect([tracker.covers('w', 'a'), tracker.covers('w', 'b'), tracker.covers('w', 'c')]).toEqual([
      true,
      true,
      false,
    ])
    await tracker.observe('w', false, new Set(), async () => 'unused')
    expect(tracker.covers('w', 'a')).toBe(false)
    await tracker.observe('w', true, new Set(), async () => 'c')
    expect(tracker.covers('w', 'c')).toBe(true)
  })
})
