import { readFileSync } from 'node:fs'
import { join } from 'node:path'
import { type Honcho, NotFoundError } from '@honcho-ai/sdk'
import { afterAll, beforeAll, describe, expect, it } from 'vitest'
import { type LiveServer, startLiveServer } from './live'

const WS = 'forget'
const FORGOTTEN = ['zanzib', 'quetzal']

let live: LiveServer
let honcho: Honcho

/** Everything the server keeps on disk for the workspace, lower-cased. */
function bytesOnDisk(): string {
  const { userMd, memoryMd } = live.memory.markdownPaths(WS)
  return [join(live.root, 'hymem.sqlite'), join(live.root, 'hymem.sqlite-wal'), userMd, memoryMd]
    .map((file) => {
      try {
        return readFileSync(file).toString('latin1').toLowerCase()
      } catch {
        return ''
      }
    })
    .join('\n')
}

beforeAll(async () => {
  // Searches asked after the deletion are new input and would be logged: the search log is off here.
  live = await startLiveServer({ memory: { searchLog: false } })
  honcho = live.client(WS)
  const alice = await honcho.peer('user-alice')
  const agent = await honcho.peer('hermes')
  const trip = await honcho.session('trip', { peers: [alice, agent] })
  await trip.addMessages([
    alice.message('I prefer Zanzibar beaches over any other island.'),
    alice.message('Our booking service uses Quetzalcoatl as its database.'),
    agent.message('Noted: the booking service runs on Quetzalcoatl.'),
  ])
  const work = await honcho.session('work', { peers: [alice, agent] })
  await work.addMessages([
    alice.message('We switched from MySQL to Postgres for the billing service.'),
    alice.message('I prefer pnpm over npm for every project.'),
  ])
  await agent.conclusionsOf(alice).create([{ content: 'Alice loves Zanzibar in June.', sessionId: 'trip' }])
  await live.memory.dream({ workspaceId: WS })
})
afterAll(async () => {
  await live.stop()
})

/** Every read path of the Honcho API, as one lower-cased text. */
async function everyRead(): Promise<string> {
  const alice = await honcho.peer('user-alice')
  const agent = await honcho.peer('hermes')
  const work = await honcho.session('work')
  const parts: unknown[] = [
    await honcho.search('Zanzibar Quetzalcoatl booking'),
    await alice.search('Zanzibar Quetzalcoatl'),
    await work.search('Zanzibar'),
    await alice.chat('Which beaches do I prefer, and what database does booking use?'),
    await honcho.chat('What does the booking service use?'),
    await alice.representation(),
    await alice.getCard(),
    await agent.context({ target: alice }),
    await work.context({ peerTarget: alice, tokens: 4000 }),
    (await honcho.conclusions.list({ size: 100 })).items,
    await agent.conclusionsOf(alice).query('Zanzibar', 10),
    await (await fetch(`${live.baseURL}/v3/workspaces/${WS}/hymem/notes`)).json(),
  ]
  return JSON.stringify(parts).toLowerCase()
}

describe('SDK contract: deleting a session forgets it', () => {
  it('every read path stops returning it at once; the purge clears the files; the other session stays', async () => {
    expect(await everyRead()).toContain('zanzibar')
    const trip = await honcho.session('trip')
    await trip.delete()
    await expect(honcho.session('trip')).rejects.toBeInstanceOf(NotFoundError)

    const after = await everyRead()
    for (const word of FORGOTTEN) expect(after).not.toContain(word)
    expect(after).toContain('pnpm')

    await live.memory.erase.finish({ workspaceId: WS })
    const disk = bytesOnDisk()
    for (const word of FORGOTTEN) expect(disk).not.toContain(word)
    expect(disk).toContain('pnpm')
    const work = await honcho.session('work')
    expect((await work.messages()).items.map((m) => m.content)).toEqual([
      'We switched from MySQL to Postgres for the billing service.',
      'I prefer pnpm over npm for every project.',
    ])
    expect((await honcho.search('Postgres'))[0]?.content).toContain('Postgres')

    const receipts = await fetch(`${live.baseURL}/v3/workspaces/${WS}/hymem/deletions`)
    expect(await receipts.json()).toEqual([
      expect.objectContaining({ kind: 'session', target: 'trip', status: 'done', messageCount: 3 }),
    ])
  })

  it('deleting a graph conclusion forgets the fact; deleting the workspace forgets everything', async () => {
    const alice = await honcho.peer('user-alice')
    const graph = (await alice.conclusions.list({ size: 100 })).items.find((c) => c.content.includes('pnpm'))!
    await alice.conclusions.delete(graph.id)
    await expect(honcho.conclusions.get(graph.id)).rejects.toBeInstanceOf(NotFoundError)
    expect((await live.coreStore.edges.getByIds(WS, [Number(graph.id.slice(3))])).length).toBe(0)

    await (await honcho.session('work')).delete()
    await honcho.deleteWorkspace(WS)
    expect(await (await honcho.workspaces()).toArray()).not.toContain(WS)
    await live.memory.erase.finish()
    expect(bytesOnDisk()).not.toContain('pnpm')
  })
})
