import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import { insertEntityType, openTestStore, type TestStore, WS } from '../../test/harness'
import { expandByTypeName, numberVariants } from './type-names'

const limits = { maxNgram: 3, maxWords: 64, maxPerType: 5 }

describe('numberVariants', () => {
  it('adds the singular and plural of the last segment', () => {
    expect(numberVariants('databases')).toEqual(['databases', 'database'])
    expect(numberVariants('database')).toEqual(['database', 'databases'])
    expect(numberVariants('libraries')).toEqual(['libraries', 'library'])
    expect(numberVariants('library')).toEqual(['library', 'libraries'])
    expect(numberVariants('package_managers')).toContain('package_manager')
    expect(numberVariants('caches')).toContain('cache')
    expect(numberVariants('boxes')).toContain('box')
    expect(numberVariants('status')).toEqual(['status', 'statuses'])
    expect(numberVariants('os')).toEqual(['os'])
  })
})

describe('expandByTypeName', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())

  it('maps a named type (singular, plural, multi-word) to its entities, best evidenced first', async () => {
    await insertEntityType(t.store, 'postgresql', 'database', 3)
    await insertEntityType(t.store, 'mysql', 'database', 1)
    await insertEntityType(t.store, 'uv', 'package_manager', 2)
    await insertEntityType(t.store, 'fastify', 'framework', 1)
    const database = { entity: 'database', entityType: 'database' }
    expect([...(await expandByTypeName(t.store, WS, 'What database do we use?', limits, []))]).toEqual([
      ['postgresql', database],
      ['mysql', database],
    ])
    expect([...(await expandByTypeName(t.store, WS, 'our Databases', limits, ['mysql']))]).toEqual([
      ['postgresql', database],
    ])
    const managers = await expandByTypeName(t.store, WS, 'which package managers?', limits, [])
    expect([...managers.keys()]).toEqual(['uv'])
    expect(await expandByTypeName(t.store, WS, 'what database', { ...limits, maxPerType: 1 }, [])).toEqual(
      new Map([['postgresql', database]]),
    )
    expect((await expandByTypeName(t.store, WS, 'hello there', limits, [])).size).toBe(0)
    expect((await expandByTypeName(t.store, WS, '', limits, [])).size).toBe(0)
  })
})
