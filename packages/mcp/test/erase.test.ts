import { mkdtempSync, readFileSync, rmSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { createFakeEmbeddings } from '@hymem/extraction'
import type { Client } from '@modelcontextprotocol/sdk/client/index.js'
import { createHyMem, type HyMem } from 'hymem'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { connectInMemory, textOf } from './harness'

const TRIP = [
  { role: 'user', content: 'I prefer Zanzibar beaches over any other island.' },
  { role: 'user', content: 'Our booking service uses Quetzalcoatl as its database.' },
] as const
const WORK = [
  { role: 'user', content: 'We switched from MySQL to Postgres for the billing service.' },
  { role: 'user', content: 'I prefer pnpm over npm for every project.' },
] as const

function bytesOnDisk(root: string): string {
  return ['hymem.sqlite', 'hymem.sqlite-wal', 'USER.md', 'MEMORY.md']
    .map((file) => {
      try {
        return readFileSync(join(root, file)).toString('latin1').toLowerCase()
      } catch {
        return ''
      }
    })
    .join('\n')
}

describe('hymem_erase through the real MCP client', () => {
  let root: string
  let memory: HyMem
  let client: Client
  beforeEach(async () => {
    root = mkdtempSync(join(tmpdir(), 'hymem-mcp-erase-'))
    // Searches asked after the deletion are new input and would be logged: the log is off here.
    memory = await createHyMem({
      root,
      embeddings: createFakeEmbeddings({ dimensions: 64 }),
      searchLog: false,
    })
    client = await connectInMemory({ memory, workspaceId: 'default' })
  })
  afterEach(async () => {
    await client.close()
    await memory.close()
    rmSync(root, { recursive: true, force: true })
  })

  const call = async (name: string, args: Record<string, unknown> = {}) => {
    const result = await client.callTool({ name, arguments: args })
    return {
      result,
      text: `${textOf(result)}\n${JSON.stringify(result.structuredContent ?? {})}`.toLowerCase(),
    }
  }
  const reads = async () => {
    const texts = [
      (await call('hymem_augment', { message: 'Zanzibar beaches and the Quetzalcoatl database' })).text,
      (await call('hymem_search', { query: 'Zanzibar trip', min_similarity: 0, relative_cutoff: 0 })).text,
      (await call('hymem_profile')).text,
      (await call('hymem_stats')).text,
    ]
    for (const uri of ['hymem://default/USER.md', 'hymem://default/MEMORY.md']) {
      const resource = await client.readResource({ uri })
      texts.push(JSON.stringify(resource.contents).toLowerCase())
    }
    return texts.join('\n')
  }

  it('erases a session after a dream: every read stops returning it at once, then the files drop it', async () => {
    await call('hymem_capture', { messages: TRIP, session_id: 'trip' })
    await call('hymem_capture', { messages: WORK, session_id: 'work' })
    await call('hymem_remember', { description: 'trip plan', content: 'Book Zanzibar in June' })
    expect((await call('hymem_dream')).text).toMatch(/^dream ok/)
    expect(await reads()).toContain('zanzibar')

    const { result, text } = await call('hymem_erase', { what: 'session', id: 'trip' })
    expect(result.isError).toBeFalsy()
    expect(result.structuredContent).toMatchObject({
      receipt: { kind: 'session', target: 'trip', messageCount: 2, removed: { messages: 2 } },
    })
    expect(text).toContain('no longer returned by any read')
    const note = (await call('hymem_search', { query: 'Book Zanzibar June', min_similarity: 0 })).result
    const noteId = (note.structuredContent as { results: { id: string }[] }).results[0]!.id
    expect((await call('hymem_erase', { what: 'note', id: noteId })).result.isError).toBeFalsy()

    const after = await reads()
    expect(after).not.toContain('zanzib')
    expect(after).not.toContain('quetzal')
    expect(after).toContain('pnpm')

    await memory.erase.finish()
    const disk = bytesOnDisk(root)
    expect(disk).not.toContain('zanzib')
    expect(disk).not.toContain('quetzal')
    expect((await call('hymem_augment', { message: 'billing database' })).text).toContain('postgres')
  })

  it('erases messages, a peer and a fact, and says what was wrong with bad input', async () => {
    await call('hymem_capture', { messages: WORK, session_id: 'work' })
    await call('hymem_dream')
    const missing = await call('hymem_erase', { what: 'note', id: 'nope' })
    expect(missing.result.isError).toBe(true)
    expect(missing.text).toContain('no memory has id nope')
    expect((await call('hymem_erase', { what: 'messages' })).text).toContain('needs ids')
    expect((await call('hymem_erase', { what: 'fact', id: 'x' })).text).toContain('positive integer')
    const messages = await call('hymem_erase', { what: 'messages', ids: ['unknown'] })
    expect(messages.result.structuredContent).toMatchObject({
      receipt: { kind: 'messages', messageCount: 0 },
    })
    const peer = await call('hymem_erase', { what: 'peer', id: 'user' })
    expect(peer.result.structuredContent).toMatchObject({
      receipt: { kind: 'peer-messages', messageCount: 2 },
    })
  })
})
