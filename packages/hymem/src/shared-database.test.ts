import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../test/harness'
import { createHyMem } from './create-hymem'
import { _storeOf } from './hymem'
import type { HyMem } from './types'

let t: TestMemory
let other: HyMem | undefined
afterEach(async () => {
  await other?.close()
  other = undefined
  await t?.close()
})

const CONVERSATION = [
  { role: 'user', content: 'We switched from MySQL to Postgres last month for the billing service.' },
  { role: 'user', content: 'The billing service deploys to fly.io every Friday.' },
] as const

const objects = async (memory: HyMem, query: string) =>
  (await memory.augment(query, { limits: { hits: 0, episodes: 0, procedures: 0, notes: 0 } })).graphFacts.map(
    (fact) => fact.object,
  )

/** One SQLite file always; with HYMEM_TEST_DATABASE_URL also one PostgreSQL schema on that server. */
const DATABASES: { label: string; database: () => string | undefined }[] = [
  { label: 'one SQLite file', database: () => undefined },
]
const serverUrl = process.env.HYMEM_TEST_DATABASE_URL
if (serverUrl) {
  DATABASES.push({
    label: 'one PostgreSQL server',
    database: () => {
      const schema = `shared_${process.pid}_${Date.now().toString(36)}`
      return `${serverUrl}${serverUrl.includes('?') ? '&' : '?'}schema=${schema}`
    },
  })
}

describe.each(DATABASES)('two memories on $label (two servers, or a server and the CLI)', ({ database }) => {
  it("each one's next query sees what the other dreamed, retracted or forgot", async () => {
    const url = database()
    t = await openTestMemory(url ? { database: url } : {})
    other = await createHyMem({
      root: t.root,
      ...(url ? { database: url } : {}),
      embeddings: null,
      clock: t.clock,
      log: () => {},
    })
    // The first memory answers (and caches its graph seeds) before the other one dreams.
    expect(await objects(t.memory, 'what do you know?')).toEqual([])

    await other.capture(CONVERSATION, { sessionId: 'work', dream: true })
    expect(await objects(t.memory, 'what do you know?')).toEqual(
      expect.arrayContaining(['postgres', 'flyio']),
    )

    const edges = await _storeOf(other).edges.listAll('default')
    const deploys = edges.find((e) => e.object === 'flyio')!
    await other.retract({ subject: deploys.subject, predicate: deploys.predicate, object: deploys.object })
    expect(await objects(t.memory, 'what do you know?')).not.toContain('flyio')

    await other.erase.fact(edges.find((e) => e.object === 'postgres')!.id)
    expect(await objects(t.memory, 'what do you know?')).not.toContain('postgres')
  })
})
