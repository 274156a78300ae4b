import { describe, expect, it } from 'vitest'
import { useTempStores } from '../../test/store-harness'
import { parseProcedureSteps } from './procedures'

describe('procedures repository', () => {
  const stores = useTempStores()

  it('inserts procedures with numbered steps and reads them back by id, within their workspace only', async () => {
    const store = stores.open()
    await store.sessions.getOrCreate('w', 's')
    const procedure = await store.procedures.insert('w', {
      id: 'p-1',
      sessionId: 's',
      name: 'deploy',
      description: 'how we deploy',
      steps: [{ order: 2, text: 'fly deploy', tool: 'fly' }, { order: 1, text: 'run tests' }, 'tag'],
      messageIds: [7],
    })
    expect(procedure.steps).toEqual([
      { order: 1, text: 'run tests' },
      { order: 2, text: 'fly deploy', tool: 'fly' },
      { order: 3, text: 'tag' },
    ])
    expect(procedure.messageIds).toEqual([7])
    expect(await store.procedures.getByIds('w', ['p-1', 'missing'])).toEqual([procedure])
    expect(await store.procedures.getByIds('other', ['p-1'])).toEqual([])
    const hits = await store.fullText.search('procedures', 'tests', { workspaceId: 'w', limit: 5 })
    expect(hits.map((hit) => hit.id)).toEqual(['p-1'])
  })
})

describe('parseProcedureSteps', () => {
  it('accepts strings and objects, renumbers from 1, and survives malformed JSON', () => {
    expect(parseProcedureSteps('["a", {"text": "b", "tool": ""}, 7, {"order": "x", "text": "c"}]')).toEqual([
      { order: 1, text: 'a' },
      { order: 2, text: 'b' },
      { order: 3, text: 'c' },
    ])
    expect(parseProcedureSteps('{not json')).toEqual([])
    expect(parseProcedureSteps('{"text": "x"}')).toEqual([])
  })
})
