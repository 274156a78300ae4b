import { createFakeLLM, createRulesExtractor, type LLMRequest } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const isDialectic = (req: LLMRequest) => req.system.startsWith('You answer questions')

async function seeded(respond: (req: LLMRequest) => string) {
  const llm = createFakeLLM({ respond: (req) => (isDialectic(req) ? respond(req) : '{}') })
  t = await openTestServer({ memory: { llm, extractor: createRulesExtractor() } })
  await t.call('POST', '/v3/workspaces/w/sessions/s/messages', {
    messages: [
      { peer_id: 'user-alice', content: 'We switched from MySQL to Postgres for billing.' },
      { peer_id: 'user-alice', content: 'The billing service depends on Redis.' },
    ],
  })
  await t.memory.dream({ workspaceId: 'w' })
  return llm
}

describe('dialectic chat with an LLM', () => {
  it('asks the LLM with the retrieved memory and the session history, and returns its answer', async () => {
    const llm = await seeded(() => 'Billing runs on Postgres.')
    const res = await t!.call('POST', '/v3/workspaces/w/peers/user-alice/chat', {
      query: 'What does the billing service depend on?',
      session_id: 's',
    })
    expect(await res.json()).toMatchObject({ content: 'Billing runs on Postgres.' })
    const request = llm.requests.filter(isDialectic).at(-1)!
    expect(request.system).toContain('the peer "user-alice"')
    expect(request.user).toContain('billing_service depends on redis')
    expect(request.user).toContain(
      'Current session, most recent last:\nuser-alice: We switched from MySQL to Postgres',
    )
    expect(request.user).toMatch(/Question: What does the billing service depend on\?$/)
  })

  it('passes response_format as a JSON-mode request', async () => {
    const llm = await seeded(() => '{"database":"postgres"}')
    const res = await t!.call('POST', '/v3/workspaces/w/chat', {
      query: 'Which database?',
      response_format: { type: 'object', properties: { database: { type: 'string' } } },
    })
    expect(((await res.json()) as { content: string }).content).toBe('{"database":"postgres"}')
    const request = llm.requests.filter(isDialectic).at(-1)!
    expect(request.json).toBe(true)
    expect(request.system).toContain('"database"')
  })

  it('falls back to the deterministic answer when the LLM fails, and logs the failure', async () => {
    await seeded(() => {
      throw new Error('provider down')
    })
    const res = await t!.call('POST', '/v3/workspaces/w/peers/user-alice/chat', {
      query: 'What does the billing service depend on?',
    })
    expect(((await res.json()) as { content: string }).content).toContain('billing_service depends on redis')
    expect(t!.events.some((e) => e.kind === 'error')).toBe(true)
  })
})

describe('dialectic chat without an LLM', () => {
  it('rejects response_format with 422', async () => {
    t = await openTestServer()
    const res = await t.call('POST', '/v3/workspaces/w/peers/p/chat', {
      query: 'x',
      response_format: { type: 'object' },
    })
    expect(res.status).toBe(422)
    expect(((await res.json()) as { detail: string }).detail).toContain('needs a configured LLM')
  })
})

describe('response_format is validated before anything else, with or without an LLM', () => {
  const invalid = { type: 'string' }
  it.each([
    ['without an LLM', () => openTestServer()],
    ['with an LLM', () => openTestServer({ memory: { llm: createFakeLLM({ respond: () => '{}' }) } })],
  ])('%s a non-object root answers 422 located at response_format', async (_label, open) => {
    t = await open()
    for (const path of ['/v3/workspaces/w/peers/p/chat', '/v3/workspaces/w/chat']) {
      const res = await t.call('POST', path, { query: 'x', response_format: invalid })
      expect(res.status).toBe(422)
      const body = (await res.json()) as { detail: { loc: unknown[]; msg: string }[] }
      expect(body.detail[0]).toMatchObject({
        loc: ['body', 'response_format'],
        msg: "Invalid response_format: root schema must have type 'object' at root",
      })
    }
  })
})

describe('dialectic evidence', () => {
  it('lists the notes behind an answer as conclusions with their level, session and sources', async () => {
    await seeded(() => 'Alice leads billing.')
    const { note } = await t!.memory.notes.remember(
      {
        description: 'billing lead',
        content: 'Alice leads the billing team.',
        observerId: 'hermes',
        observedId: 'user-alice',
        sessionId: 's',
        level: 'deductive',
        sourceIds: ['n-premise'],
      },
      { workspaceId: 'w' },
    )
    const res = await t!.call('POST', '/v3/workspaces/w/peers/user-alice/chat', {
      query: 'Who leads the billing team?',
      include_evidence: true,
    })
    const { evidence } = (await res.json()) as { evidence: { conclusions: Record<string, unknown>[] } }
    expect(evidence.conclusions).toContainEqual({
      id: note.id,
      level: 'deductive',
      content: 'Alice leads the billing team.',
      created_at: note.createdAt,
      session_id: 's',
      source_ids: ['n-premise'],
      message_ids: [],
      why: expect.any(Array),
    })
  })

  it('names the messages behind each graph fact, their session, and the question’s words in each message', async () => {
    await seeded(() => 'Billing depends on Redis.')
    const res = await t!.call('POST', '/v3/workspaces/w/peers/user-alice/chat', {
      query: 'What does the billing service depend on?',
      include_evidence: true,
    })
    const { evidence } = (await res.json()) as {
      evidence: {
        conclusions: {
          id: string
          content: string
          session_id: string | null
          message_ids: string[]
          why: string[]
        }[]
        messages: { id: string; matched_words: string[] }[]
      }
    }
    const fact = evidence.conclusions.find((c) => c.content === 'billing_service depends on redis')
    expect(fact).toMatchObject({ session_id: 's', why: expect.arrayContaining([expect.any(String)]) })
    expect(fact!.id).toMatch(/^kg-\d+$/)
    const behind = evidence.messages.filter((m) => fact!.message_ids.includes(m.id))
    expect(behind.length).toBe(fact!.message_ids.length)
    // The chunk behind the fact holds both turns ('…Postgres for billing.', 'The billing service depends…').
    expect(behind.map((m) => m.matched_words)).toEqual([['billing'], ['the', 'billing', 'service']])
  })
})
