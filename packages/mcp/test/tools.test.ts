import { describe, expect, it } from 'vitest'
import { connectInMemory, DEVELOPER_CHAT, openTestMemory, textOf, useConnectedMemory } from './harness'

const ALL_TOOLS = [
  'hymem_alias',
  'hymem_augment',
  'hymem_capture',
  'hymem_conflicts',
  'hymem_dream',
  'hymem_erase',
  'hymem_forget',
  'hymem_history',
  'hymem_log',
  'hymem_note',
  'hymem_notes',
  'hymem_profile',
  'hymem_remember',
  'hymem_restore',
  'hymem_retract',
  'hymem_search',
  'hymem_stats',
  'hymem_usage_guide',
]

describe('MCP tools over the in-memory transport', () => {
  const connected = useConnectedMemory()

  it('lists every tool with a description and an input schema', async () => {
    const { tools } = await connected().client.listTools()
    expect(tools.map((tool) => tool.name).sort()).toEqual(ALL_TOOLS)
    for (const tool of tools) {
      expect(tool.description?.length).toBeGreaterThan(40)
      expect(tool.inputSchema.type).toBe('object')
    }
    const capture = tools.find((tool) => tool.name === 'hymem_capture')
    expect(Object.keys(capture?.inputSchema.properties ?? {}).sort()).toEqual([
      'dream',
      'messages',
      'session_id',
    ])
    expect(tools.find((tool) => tool.name === 'hymem_augment')?.annotations?.readOnlyHint).toBe(true)
  })

  it('captures, dreams and recalls a fact stated in the conversation', async () => {
    const captured = await connected().client.callTool({
      name: 'hymem_capture',
      arguments: { messages: DEVELOPER_CHAT, session_id: 'chat-1', dream: true },
    })
    expect(captured.isError).toBeFalsy()
    expect(captured.structuredContent).toMatchObject({ session_id: 'chat-1', stored: 4 })

    const recalled = await connected().client.callTool({
      name: 'hymem_augment',
      arguments: { message: 'What database does billing use?' },
    })
    expect(recalled.isError).toBeFalsy()
    expect(textOf(recalled).toLowerCase()).toContain('postgres')
  })

  it('returns one block within the token budget (1,500 by default), with what was left out', async () => {
    await connected().client.callTool({
      name: 'hymem_capture',
      arguments: { messages: DEVELOPER_CHAT, session_id: 'chat-1', dream: true },
    })
    const tokensOf = (result: unknown) =>
      (result as { structuredContent: { context_tokens: number } }).structuredContent.context_tokens
    const full = await connected().client.callTool({
      name: 'hymem_augment',
      arguments: { message: 'What database does billing use?' },
    })
    const block = textOf(full)
    expect(block).toContain('## Relevant memory (best first)')
    expect(block).toMatch(/- \[\d{4}-\d{2}-\d{2} \S+\] /)
    expect(tokensOf(full)).toBeGreaterThan(0)
    expect(tokensOf(full)).toBeLessThanOrEqual(1500)
    expect(full.structuredContent).toMatchObject({ context: block })
    const tight = await connected().client.callTool({
      name: 'hymem_augment',
      arguments: { message: 'What database does billing use?', tokens: 30 },
    })
    expect(tokensOf(tight)).toBeLessThanOrEqual(30)
    expect(textOf(tight).length).toBeLessThan(block.length)
    const suppressed = (tight.structuredContent as { suppressed: { why_suppressed: string }[] }).suppressed
    expect(suppressed.length).toBeGreaterThan(0)
    expect(suppressed.every((item) => item.why_suppressed.startsWith('over_token_budget_'))).toBe(true)
  })

  it('logs single turns and dreams on demand', async () => {
    const logged = await connected().client.callTool({
      name: 'hymem_log',
      arguments: {
        role: 'user',
        content: 'Our API is deployed to Fly.io from the main branch.',
        session_id: 's2',
      },
    })
    expect(logged.structuredContent).toMatchObject({ session_id: 's2' })
    const dreamed = await connected().client.callTool({ name: 'hymem_dream', arguments: { budget: 10 } })
    expect(dreamed.isError).toBeFalsy()
    expect(textOf(dreamed)).toMatch(/^Dream ok/)
  })

  it('remembers, searches, forgets (dry run, then apply) and restores explicit memories', async () => {
    const saved = await connected().client.callTool({
      name: 'hymem_remember',
      arguments: {
        description: 'Release day',
        content: 'We release on Tuesdays after the standup.',
        importance: 0,
      },
    })
    const id = (saved.structuredContent as { id: string }).id
    const again = await connected().client.callTool({
      name: 'hymem_remember',
      arguments: { description: 'Release day', content: 'We release on Tuesdays after the standup.' },
    })
    expect(again.structuredContent).toMatchObject({ id, deduplicated: true })

    const found = await connected().client.callTool({
      name: 'hymem_search',
      arguments: { query: 'when do we release' },
    })
    expect((found.structuredContent as { results: { id: string }[] }).results.map((r) => r.id)).toContain(id)

    const dry = await connected().client.callTool({ name: 'hymem_forget', arguments: { id } })
    expect(dry.structuredContent).toMatchObject({ matched: 1, applied: false })
    expect(
      textOf(
        await connected().client.callTool({ name: 'hymem_search', arguments: { query: 'release Tuesdays' } }),
      ),
    ).toContain(id)

    const applied = await connected().client.callTool({
      name: 'hymem_forget',
      arguments: { id, apply: true },
    })
    expect(applied.structuredContent).toMatchObject({ matched: 1, applied: true })
    expect(
      textOf(
        await connected().client.callTool({ name: 'hymem_search', arguments: { query: 'release Tuesdays' } }),
      ),
    ).not.toContain(id)

    const restored = await connected().client.callTool({ name: 'hymem_restore', arguments: { id } })
    expect(restored.isError).toBeFalsy()
    expect(
      textOf(
        await connected().client.callTool({ name: 'hymem_search', arguments: { query: 'release Tuesdays' } }),
      ),
    ).toContain(id)
  })

  it('aliases, retracts and reports stats and the profile', async () => {
    await connected().client.callTool({
      name: 'hymem_capture',
      arguments: { messages: DEVELOPER_CHAT, dream: true },
    })
    const alias = await connected().client.callTool({
      name: 'hymem_alias',
      arguments: { surface: 'pg', canonical: 'postgresql' },
    })
    expect(alias.isError).toBeFalsy()
    const profile = await connected().client.callTool({ name: 'hymem_profile', arguments: {} })
    expect(profile.structuredContent).toHaveProperty('user_md')
    const stats = await connected().client.callTool({ name: 'hymem_stats', arguments: {} })
    expect(stats.isError).toBeFalsy()
    const missing = await connected().client.callTool({
      name: 'hymem_retract',
      arguments: { subject: 'nobody', predicate: 'uses', object: 'nothing' },
    })
    expect(missing.isError).toBe(true)
    expect(textOf(missing)).toContain('No active fact')
  })

  it('answers bad arguments with isError results that say what was wrong', async () => {
    const cases: [string, Record<string, unknown>, string][] = [
      ['hymem_capture', { messages: [] }, 'messages'],
      ['hymem_capture', { messages: [{ role: 'robot', content: 'x' }] }, 'role'],
      [
        'hymem_capture',
        { messages: [{ role: 'user', content: 'x', session_id: 'm1' }] },
        'Unrecognized key: "session_id"',
      ],
      ['hymem_log', { role: 'user' }, 'content'],
      ['hymem_log', { role: 'user', content: 'x', session_id: 'no spaces allowed' }, 'session_id'],
      ['hymem_augment', { message: '' }, 'message'],
      ['hymem_augment', { message: 'x', tokens: 0 }, 'tokens'],
      ['hymem_dream', { budget: -1 }, 'budget'],
      ['hymem_search', { query: 'x', min_similarity: 2 }, 'min_similarity'],
      ['hymem_remember', { description: 'only a description' }, 'content'],
      ['hymem_restore', { id: 'does-not-exist' }, 'No memory has id'],
      ['hymem_usage_guide', { section: 'everything' }, 'section'],
    ]
    for (const [name, args, mention] of cases) {
      const result = await connected().client.callTool({ name, arguments: args })
      expect(result.isError, `${name} ${JSON.stringify(args)}`).toBe(true)
      expect(textOf(result)).toContain(mention)
    }
  })

  it('generates a usage guide from the registered tools and live settings', async () => {
    const guide = await connected().client.callTool({ name: 'hymem_usage_guide', arguments: {} })
    const text = textOf(guide)
    expect(text).toContain('=== claude_md ===')
    expect(text).toContain('workspace `proj`')
    for (const name of ALL_TOOLS) expect(text).toContain(name)
    expect(text).toContain('rule-based extractor')
    const only = await connected().client.callTool({
      name: 'hymem_usage_guide',
      arguments: { section: 'setup' },
    })
    expect(Object.keys(only.structuredContent ?? {}).sort()).toEqual(['setup', 'warnings'])
  })

  it('serves USER.md and MEMORY.md as resources', async () => {
    const { resources } = await connected().client.listResources()
    expect(resources.map((r) => r.uri).sort()).toEqual(['hymem://proj/MEMORY.md', 'hymem://proj/USER.md'])
    const read = await connected().client.readResource({ uri: 'hymem://proj/USER.md' })
    expect(read.contents[0]?.mimeType).toBe('text/markdown')
  })
})

describe('a memory closed under the server', () => {
  it('answers every tool call with an isError result saying the memory is closed, not a driver error', async () => {
    const { memory, cleanup } = await openTestMemory()
    const client = await connectInMemory({ memory, workspaceId: 'proj' })
    try {
      await memory.close()
      for (const [name, args] of [
        ['hymem_stats', {}],
        ['hymem_log', { role: 'user', content: 'too late' }],
        ['hymem_search', { query: 'anything' }],
      ] as const) {
        const result = await client.callTool({ name, arguments: args })
        expect(result.isError, name).toBe(true)
        expect(textOf(result)).toBe(
          `${name} failed: the memory behind this MCP server is closed (the server is shutting down); restart the HyMem MCP server, then retry`,
        )
      }
    } finally {
      await client.close()
      await cleanup()
    }
  })
})

describe('workspace scoping', () => {
  it('a server bound to one workspace never sees another workspace', async () => {
    const { memory, cleanup } = await openTestMemory()
    const a = await connectInMemory({ memory, workspaceId: 'team-a' })
    const b = await connectInMemory({ memory, workspaceId: 'team-b' })
    try {
      await a.callTool({
        name: 'hymem_remember',
        arguments: { description: 'Secret plan', content: 'Team A migrates to Rust in March.' },
      })
      const fromA = await a.callTool({ name: 'hymem_search', arguments: { query: 'Rust migration plan' } })
      const fromB = await b.callTool({ name: 'hymem_search', arguments: { query: 'Rust migration plan' } })
      expect((fromA.structuredContent as { results: unknown[] }).results).toHaveLength(1)
      expect((fromB.structuredContent as { results: unknown[] }).results).toHaveLength(0)
    } finally {
      await a.close()
      await b.close()
      await cleanup()
    }
  })
})
