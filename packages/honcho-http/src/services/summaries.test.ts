import { mkdirSync, readFileSync, writeFileSync } from 'node:fs'
import { dirname } from 'node:path'
import { createFakeLLM, createRulesExtractor, type LLMRequest } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { openTestServer, type TestServer } from '../../test/harness'

let t: TestServer | undefined
afterEach(async () => {
  await t?.close()
  t = undefined
})

const isDialectic = (req: LLMRequest) => req.system.startsWith('You answer questions')

async function json<T>(res: Response): Promise<T> {
  expect(res.status).toBe(200)
  return (await res.json()) as T
}

/** Seventeen more things Alice says, each about something else. */
const DIARY = [
  'My sister Marta moved to Lisbon last spring.',
  'I usually cycle to the hospital along the Douro.',
  'Our ward switched to electronic charts in March.',
  'I am learning to play the cello on weekends.',
  'The night shifts rotate every three weeks.',
  'My favourite restaurant serves grilled sardines.',
  'I adopted a grey cat called Pixel.',
  'We plan a hiking trip to Gerês in July.',
  'The cardiology team meets every Tuesday morning.',
  'I bought a used Peugeot from a colleague.',
  'My running club trains at the city park.',
  'I read a novel by Saramago this month.',
  'The hospital cafeteria closes at nine.',
  'I volunteer at a food bank on Sundays.',
  'My brother Tiago studies engineering in Braga.',
  'I keep my notes in a paper journal.',
  'Our apartment overlooks the Ribeira district.',
]

interface Summary {
  content: string
  message_id: string
  summary_type: string
}

describe('summaries, context, card and chat carry no HyMem section markers (S6, S7, §7.5)', () => {
  it('renders USER.md / MEMORY.md as plain prose after a real dream', async () => {
    const llm = createFakeLLM({ respond: (req) => (isDialectic(req) ? 'Alice lives in Porto.' : '{}') })
    const server = await openTestServer({ memory: { llm, extractor: createRulesExtractor() } })
    t = server
    // Summaries every 10 / 20 messages (Honcho's smallest intervals), so 20 messages get both.
    const configured = await server.call('PUT', '/v3/workspaces/w/sessions/sess-1', {
      configuration: { summary: { messages_per_short_summary: 10, messages_per_long_summary: 20 } },
    })
    expect(configured.status).toBe(200)
    const created = await server.call('POST', '/v3/workspaces/w/sessions/sess-1/messages', {
      messages: [
        { peer_id: 'alice', content: 'I live in Porto and work at Santo Antonio hospital' },
        { peer_id: 'alice', content: 'I prefer tea' },
        { peer_id: 'alice', content: 'I prefer tea over coffee in the morning' },
        ...DIARY.map((content) => ({ peer_id: 'alice', content })),
      ],
    })
    expect(created.status).toBe(201)
    const last = ((await created.json()) as { id: string }[]).at(-1)!.id
    await server.memory.dream({ workspaceId: 'w' })
    // The files do hold managed sections: the server must not pass their markers on.
    const userMd = readFileSync(server.memory.markdownPaths('w').userMd, 'utf8')
    expect(userMd).toContain('<!-- HyMem:auto:')

    const texts: string[] = []
    const context = await json<{ summary: Summary | null; peer_representation: string; peer_card: string[] }>(
      await server.call('GET', '/v3/workspaces/w/sessions/sess-1/context?tokens=200&peer_target=alice'),
    )
    expect(context.summary?.content).toMatch(/Porto/)
    texts.push(context.summary?.content ?? '', context.peer_representation, ...(context.peer_card ?? []))
    const summaries = await json<{ short_summary: Summary | null; long_summary: Summary | null }>(
      await server.call('GET', '/v3/workspaces/w/sessions/sess-1/summaries'),
    )
    expect(summaries.long_summary?.content).toContain('\n\nPreference: User prefers tea over coffee.')
    // The dream read all 20 messages (its last salient chunk ends earlier): both summaries cover them.
    expect(summaries.short_summary?.message_id).toBe(last)
    expect(summaries.long_summary?.message_id).toBe(last)
    texts.push(summaries.short_summary?.content ?? '', summaries.long_summary?.content ?? '')
    const card = await json<{ peer_card: string[] | null }>(
      await server.call('GET', '/v3/workspaces/w/peers/alice/card'),
    )
    texts.push(...(card.peer_card ?? []))
    const representation = await json<{ representation: string }>(
      await server.call('POST', '/v3/workspaces/w/peers/alice/representation', {}),
    )
    texts.push(representation.representation)
    const chat = await json<{ content: string }>(
      await server.call('POST', '/v3/workspaces/w/peers/alice/chat', { query: 'Where does Alice live?' }),
    )
    expect(chat.content).toBe('Alice lives in Porto.')
    const prompt = llm.requests.filter(isDialectic).at(-1)
    expect(prompt?.user).toMatch(/Porto/)
    texts.push(prompt?.user ?? '')
    for (const text of texts) {
      expect(text).not.toContain('<!--')
      expect(text).not.toContain('HyMem:auto')
    }
  })

  it('builds the fallback card and the long summary from typed profile entries and the hand-written text', async () => {
    const server = await openTestServer()
    t = server
    const paths = server.memory.markdownPaths('w')
    mkdirSync(dirname(paths.userMd), { recursive: true })
    const section = '<!-- HyMem:auto:profile:start -->\n- [fact] A line the store no longer holds\n'
    writeFileSync(paths.userMd, `# User\n\nWritten by hand.\n\n${section}<!-- HyMem:auto:profile:end -->\n`)
    await server.coreStore.peers.getOrCreate('w', 'alice', { role: 'user' })
    const messages = await server.coreStore.messages.insertBatch(
      'w',
      's',
      Array.from({ length: 20 }, (_, i) => ({ peerId: 'alice', content: `hello ${i + 1}` })),
    )
    await server.coreStore.sessions.setSummary('w', 's', {
      text: 'Alice said hello twenty times.',
      messageId: messages.at(-1)!.id,
    })
    await server.call('PUT', '/v3/workspaces/w/sessions/s', {
      configuration: { summary: { messages_per_short_summary: 10, messages_per_long_summary: 20 } },
    })
    await server.coreStore.markers.observeProfileEntry('w', {
      peerId: null,
      kind: 'preference',
      statement: 'User prefers tabs.',
      statementKey: 'user prefers tabs',
      observedAt: '2026-01-01T00:00:00.000Z',
    })
    const card = await json<{ peer_card: string[] | null }>(
      await server.call('GET', '/v3/workspaces/w/peers/alice/card'),
    )
    expect(card.peer_card).toEqual(['Written by hand.', 'Preference: User prefers tabs.'])
    const summaries = await json<{ short_summary: Summary | null; long_summary: Summary | null }>(
      await server.call('GET', '/v3/workspaces/w/sessions/s/summaries'),
    )
    expect(summaries.short_summary?.content).toBe('Alice said hello twenty times.')
    expect(summaries.long_summary?.content).toBe(
      'Alice said hello twenty times.\n\nWritten by hand. Preference: User prefers tabs.',
    )
  })
})
