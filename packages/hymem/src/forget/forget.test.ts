import { readFileSync } from 'node:fs'
import { createFakeEmbeddings } from '@hymem/extraction'
import { afterEach, describe, expect, it } from 'vitest'
import { bytesOnDisk, FORGOTTEN, TRIP, WORK } from '../../test/forget-scenario'
import { collect, openTestMemory, type TestMemory } from '../../test/harness'
import { _storeOf } from '../hymem'
import type { HyMem } from '../types'

let t: TestMemory
afterEach(async () => {
  await t?.close()
})

async function seeded(memory: HyMem) {
  await memory.capture(TRIP, { sessionId: 'trip' })
  await memory.capture(WORK, { sessionId: 'work' })
  await memory.notes.remember({
    description: 'trip plan',
    content: 'Book Zanzibar in June',
    sessionId: 'trip',
  })
  expect((await memory.dream()).status).toBe('ok')
}

const textOf = async (memory: HyMem, query: string) => {
  const context = await memory.augment(query)
  return JSON.stringify([
    context.hits.map((h) => h.text),
    context.graphFacts.map((f) => [f.subject, f.object]),
    context.episodes,
    context.notes,
    context.userMd,
    context.memoryMd,
  ]).toLowerCase()
}

describe('forgetting a session', () => {
  it('excludes it from every read at once, then purges it from the files; the other session stays', async () => {
    // Searches asked after the deletion are new input and would be logged: this test reads with the log off.
    t = await openTestMemory({ embeddings: createFakeEmbeddings({ dimensions: 32 }), searchLog: false })
    const { memory } = t
    await seeded(memory)
    expect(await textOf(memory, 'Zanzibar Quetzalcoatl booking')).toContain('zanzibar')
    expect(bytesOnDisk(t.root)).toContain('zanzib')

    const receipt = await memory.erase.session('trip')
    expect(receipt).toMatchObject({
      kind: 'session',
      target: 'trip',
      messageCount: 3,
      status: 'rows-removed',
    })
    expect(receipt.removed).toMatchObject({ messages: 3, chunks: 1, episodes: 1, notes: 1, sessions: 1 })
    expect(receipt.removed.facts).toBeGreaterThanOrEqual(2)

    const after = await textOf(memory, 'Zanzibar Quetzalcoatl booking')
    for (const word of FORGOTTEN) expect(after).not.toContain(word)
    expect(await memory.notes.search('Zanzibar June')).toEqual([])
    expect((await _storeOf(memory).messages.listBySession('default', 'trip')).total).toBe(0)

    const [done] = await memory.erase.finish()
    expect(done).toMatchObject({ id: receipt.id, status: 'done' })
    const disk = bytesOnDisk(t.root)
    for (const word of FORGOTTEN) expect(disk).not.toContain(word)
    expect(disk).toContain('pnpm')

    const work = await textOf(memory, 'which database for billing, pnpm or npm?')
    expect(work).toContain('postgres')
    expect((await memory.profile()).userMd).toContain('pnpm')
    expect((await _storeOf(memory).messages.listBySession('default', 'work')).total).toBe(2)
    expect((await memory.stats()).deletions).toEqual([done])
    expect(t.events.filter((e) => e.kind === 'forget').map((e) => e.kind === 'forget' && e.status)).toEqual([
      'rows-removed',
      'done',
    ])
  })

  it('removes earlier searches that named words only the forgotten content held from the search log', async () => {
    t = await openTestMemory()
    await seeded(t.memory)
    await t.memory.augment('when was the Zanzibar trip?')
    await t.memory.augment('billing on mysql or postgres?')
    await t.memory.erase.session('trip', { wait: true })
    const logged = await t.store.searchLog.list('default')
    expect(logged.map((row) => row.query)).toEqual(['billing on mysql or postgres?'])
    expect(bytesOnDisk(t.root)).not.toContain('zanzib')
  })

  it('removes earlier searches in Chinese that named words only the forgotten content held', async () => {
    t = await openTestMemory()
    await t.memory.logMessages('trip', [{ peerId: 'user', content: '我们下个月去桂林旅行，住在漓江边上。' }])
    await t.memory.logMessages('work', [{ peerId: 'user', content: '后端服务部署在阿里云上。' }])
    await t.memory.augment('桂林的酒店订好了吗？')
    await t.memory.augment('阿里云的账单多少钱？')
    await t.memory.erase.session('trip', { wait: true })
    const logged = await t.store.searchLog.list('default')
    expect(logged.map((row) => row.query)).toEqual(['阿里云的账单多少钱？'])
  })

  it('is idempotent, and the next dream rebuilds nothing from the forgotten session', async () => {
    t = await openTestMemory()
    await seeded(t.memory)
    await t.memory.erase.session('trip', { wait: true })
    const again = await t.memory.erase.session('trip', { wait: true })
    expect(again).toMatchObject({ messageCount: 0, removed: {}, status: 'done' })
    expect((await t.memory.dream()).status).toBe('ok')
    expect(await textOf(t.memory, 'Zanzibar Quetzalcoatl')).not.toContain('zanzib')
    expect((await t.memory.erase.receipts()).map((r) => r.kind)).toEqual(['session', 'session'])
  })
})

describe('forgetting messages, a peer, a note, a fact, a workspace', () => {
  it('forgets single messages by public id; the rest of their session is summarised again by the next dream', async () => {
    t = await openTestMemory()
    const { messages } = await t.memory.capture(TRIP, { sessionId: 'trip' })
    await t.memory.dream()
    const receipt = await t.memory.erase.messages([messages[1]!.publicId, 'no-such-id'], { wait: true })
    expect(receipt).toMatchObject({ kind: 'messages', messageCount: 1, status: 'done' })
    expect((await t.store.messages.listBySession('default', 'trip')).items.map((m) => m.content)).toEqual([
      TRIP[0].content,
      TRIP[2].content,
    ])
    expect((await t.store.sessions.get('default', 'trip'))?.summary).toBeNull()
    await expect(t.memory.erase.messages('nope' as never)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it("forgets a peer's messages in every session", async () => {
    t = await openTestMemory()
    await t.memory.capture(TRIP, { sessionId: 'trip' })
    await t.memory.capture(WORK, { sessionId: 'work' })
    const receipt = await t.memory.erase.peerMessages('user', { wait: true })
    expect(receipt).toMatchObject({ kind: 'peer-messages', target: 'user', messageCount: 4 })
    expect(await t.store.messages.count('default')).toBe(1)
  })

  it('forgets a note by id (null for an unknown one); deleteNote goes the same way', async () => {
    t = await openTestMemory()
    const { note } = await t.memory.notes.remember({ description: 'door code', content: 'The code is 4711' })
    const receipt = await t.memory.erase.note(note.id, { wait: true })
    expect(receipt).toMatchObject({ kind: 'note', target: note.id, removed: { notes: 1 }, status: 'done' })
    expect(await t.memory.erase.note(note.id)).toBeNull()
    expect(await t.memory.notes.get(note.id, { includeArchived: true })).toBeNull()
    const other = await t.memory.notes.remember({ description: 'wifi', content: 'Password hunter2' })
    expect(await t.memory.erase.note(other.note.id)).not.toBeNull()
    expect(await t.memory.erase.note(other.note.id)).toBeNull()
  })

  it('forgets one fact; its source messages stay', async () => {
    t = await openTestMemory()
    await t.memory.capture(WORK, { sessionId: 'work' })
    await t.memory.dream()
    const edge = (await t.store.edges.listAll('default')).find((e) => e.object === 'postgres')!
    const receipt = await t.memory.erase.fact(edge.id, { wait: true })
    expect(receipt?.removed).toMatchObject({ facts: 1 })
    expect(await t.memory.erase.fact(edge.id)).toBeNull()
    expect(await t.store.messages.count('default')).toBe(2)
    await expect(t.memory.erase.fact(-3)).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })

  it('forgets a workspace and its Markdown sections; the export holds none of it', async () => {
    t = await openTestMemory()
    await t.memory.capture(TRIP, { sessionId: 'trip', workspaceId: 'team' })
    await t.memory.capture(WORK, { sessionId: 'work' })
    await t.memory.dream({ workspaceId: 'team' })
    const files = t.memory.markdownPaths('team')
    expect(readFileSync(files.userMd, 'utf8')).toContain('Zanzibar')
    const receipt = await t.memory.erase.workspace('team', { wait: true })
    expect(receipt).toMatchObject({ kind: 'workspace', status: 'done' })
    expect(readFileSync(files.userMd, 'utf8')).not.toContain('Zanzibar')
    expect(await t.store.workspaces.get('team')).toBeNull()
    const dump = (await collect(t.memory.export())).join('\n').toLowerCase()
    expect(dump).not.toContain('zanzib')
    expect(dump).toContain('pnpm')
  })
})
