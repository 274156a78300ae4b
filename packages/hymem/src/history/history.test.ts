import { afterEach, describe, expect, it } from 'vitest'
import { openTestMemory, type TestMemory } from '../../test/harness'

let t: TestMemory
afterEach(async () => {
  await t?.close()
})

describe('history', () => {
  it('tells how an entity changed: supersede chain, retraction, evidence and both clocks, oldest first', async () => {
    t = await openTestMemory()
    const { memory, clock } = t
    const first = await memory.capture([{ role: 'user', content: 'We deploy the API to Heroku.' }])
    const early = await memory.dream()
    clock.advanceDays(10)
    const second = await memory.capture([
      { role: 'user', content: 'The API now deploys to Fly.io.' },
      { role: 'user', content: 'The API uses MySQL.' },
    ])
    const late = await memory.dream()
    await memory.retract({ subject: 'api', predicate: 'uses', object: 'mysql', reason: 'we never did' })

    const { entity, facts } = await memory.history('the API')
    expect(entity).toBe('api')
    const line = (f: (typeof facts)[number]) => `${f.predicate} ${f.object} ${f.status}`
    expect(facts.map(line)).toEqual([
      'deploys_to heroku stale',
      'deploys_to flyio active',
      'uses mysql retracted',
    ])
    const [heroku, fly, mysql] = facts
    expect(heroku).toMatchObject({
      becameTrueAt: first.messages[0]!.createdAt,
      learnedInRun: early.runId,
      validTo: second.messages[0]!.createdAt,
      supersededBy: { object: 'flyio' },
    })
    expect(heroku!.evidence).toEqual([
      expect.objectContaining({
        polarity: 1,
        source: 'extraction',
        messageIds: [first.messages[0]!.publicId],
      }),
    ])
    expect(fly).toMatchObject({
      learnedInRun: late.runId,
      supersedes: [{ object: 'heroku' }],
      retraction: null,
    })
    expect(fly!.learnedAt! > heroku!.learnedAt!).toBe(true)
    expect(mysql?.retraction).toMatchObject({ reason: 'we never did' })
    expect((await memory.history('nothing known')).facts).toEqual([])
    await expect(memory.history('  ')).rejects.toMatchObject({ code: 'INVALID_INPUT' })
  })
})
