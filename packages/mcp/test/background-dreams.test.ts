import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import type { CallToolResult } from '@modelcontextprotocol/sdk/types.js'
import { afterEach, describe, expect, it } from 'vitest'
import { connectInMemory, DEVELOPER_CHAT, openTestMemory } from './harness'

let cleanups: (() => Promise<void>)[] = []
afterEach(async () => {
  for (const cleanup of cleanups.reverse()) await cleanup()
  cleanups = []
})

async function open(backgroundDreaming: boolean, dreamCooldownMs = 0) {
  const { memory, cleanup } = await openTestMemory({ dreamCooldownMs })
  const client = await connectInMemory({ memory, backgroundDreaming })
  cleanups.push(async () => {
    await client.close()
    await cleanup()
  })
  return { memory, client }
}

const call = async (client: Client, name: string, args: Record<string, unknown> = {}) =>
  (await client.callTool({ name, arguments: args })) as CallToolResult

async function factsFor(client: Client, query: string): Promise<string[]> {
  const result = await call(client, 'hymem_augment', { message: query })
  const facts = (result.structuredContent as { graph_facts?: { object: string }[] }).graph_facts ?? []
  return facts.map((fact) => fact.object)
}

async function eventually<T>(read: () => Promise<T>, ok: (value: T) => boolean, ms = 20_000): Promise<T> {
  const started = Date.now()
  for (;;) {
    const value = await read()
    if (ok(value) || Date.now() - started > ms) return value
    await new Promise((resolve) => setTimeout(resolve, 50))
  }
}

describe('background dreams after MCP writes', () => {
  it('turns a capture into graph facts without any hymem_dream call', async () => {
    const { client } = await open(true)
    await call(client, 'hymem_capture', { messages: DEVELOPER_CHAT })
    const facts = await eventually(
      () => factsFor(client, 'Which database does billing use?'),
      (objects) => objects.includes('postgresql'),
    )
    expect(facts).toContain('postgresql')
  })

  it('asks for a dream after each write tool, never after reads or failed calls, and stats say when', async () => {
    const { client } = await open(true, 60_000)
    const stats = async () =>
      ((await call(client, 'hymem_stats')).structuredContent as { next_dream: Record<string, unknown> })
        .next_dream
    expect(await stats()).toEqual({ running: false, due_at: null })
    await call(client, 'hymem_augment', { message: 'anything' })
    await call(client, 'hymem_retract', { subject: 'x', predicate: 'uses', object: 'y' })
    expect(await stats()).toEqual({ running: false, due_at: null })

    await call(client, 'hymem_log', { role: 'user', content: 'We deploy the API to Fly.io.' })
    expect((await stats()).running).toBe(true)
    await eventually(stats, (next) => next.running === false)
    expect(await factsFor(client, 'Where do we deploy the API?')).toContain('flyio')
    // Within the cooldown the next write's dream is due when the cooldown ends, about a minute on.
    await call(client, 'hymem_remember', { description: 'deploys', content: 'Deploys go out on Fridays.' })
    const next = await stats()
    expect(Date.parse(String(next.due_at)) - Date.now()).toBeGreaterThan(50_000)
  })

  it('schedules nothing when background dreaming is off', async () => {
    const { memory, client } = await open(false)
    await call(client, 'hymem_capture', { messages: DEVELOPER_CHAT })
    expect(memory.queue.background()).toEqual({ running: false, dueAt: null })
  })
})
