import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import {
  insertAlias,
  insertEdge,
  insertEntityType,
  openTestStore,
  type TestStore,
  WS,
} from '../../test/harness'
import { entityKeys, expandByType, matchKnownEntities } from './entities'

const limits = { maxNgram: 3, maxWords: 64 }

describe('entityKeys', () => {
  it('canonicalises 1–3-word n-grams and keeps the lower-cased surface for alias lookup', () => {
    const keys = entityKeys('The Atta van Westreenen', limits)
    expect(keys).toContain('atta_van_westreenen')
    expect(keys).toContain('atta van westreenen')
    expect(keys).toContain('van_westreenen')
    expect(keys).not.toContain('the')
  })
  it('looks names up inside runs of scripts written without spaces', () => {
    expect(entityKeys('阿里云上的服务怎么样？', limits)).toContain('阿里云')
    expect(entityKeys('東京のサーバー', limits)).toEqual(expect.arrayContaining(['東京', 'サーバー']))
  })
  it('returns nothing for text without words', () => {
    expect(entityKeys('?!  🙂', limits)).toEqual([])
  })
})

describe('matchKnownEntities', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())
  const match = (text: string) => matchKnownEntities(t.store, WS, text, limits)

  it('matches subjects, including multi-word names through their canonical form', async () => {
    await insertEdge(t.store, { subject: 'atta_van_westreenen', predicate: 'part_of', object: 'medflow' })
    await insertEdge(t.store, { subject: 'user_service', predicate: 'uses', object: 'kafka' })
    expect(await match('How is Atta van Westreenen doing with the UserService?')).toEqual([
      'atta_van_westreenen',
      'user_service',
    ])
  })

  it('matches a name in Chinese or Japanese inside an unspaced question', async () => {
    await insertEdge(t.store, { subject: 'backend', predicate: 'deploys_to', object: '阿里云' })
    await insertEdge(t.store, { subject: '阿里云', predicate: 'part_of', object: 'alibaba' })
    await insertEdge(t.store, { subject: '東京', predicate: 'part_of', object: '日本' })
    expect(await match('后端部署在阿里云上吗？')).toEqual(['阿里云'])
    expect(await match('東京のサーバーはどう？')).toEqual(['東京'])
  })

  it('resolves aliases to their canonical', async () => {
    await insertAlias(t.store, 'pg', 'postgres')
    await insertAlias(t.store, 'the big db', 'postgres')
    expect(await match('is PG up?')).toEqual(['postgres'])
    expect(await match('the big db is slow')).toEqual(['postgres'])
  })

  it('shape filter: a one-off object does not match, but one that is also a subject, typed, or repeated does', async () => {
    await insertEdge(t.store, { subject: 'atta', predicate: 'part_of', object: 'working' })
    expect(await match('working late again')).toEqual([])

    await insertEdge(t.store, { subject: 'api', predicate: 'uses', object: 'redis' })
    expect(await match('redis')).toEqual([])
    await insertEdge(t.store, { subject: 'worker', predicate: 'uses', object: 'redis' })
    expect(await match('redis')).toEqual(['redis'])

    await insertEdge(t.store, { subject: 'api', predicate: 'uses', object: 'kafka' })
    await insertEntityType(t.store, 'kafka', 'queue')
    expect(await match('kafka')).toEqual(['kafka'])

    await insertEdge(t.store, { subject: 'api', predicate: 'deploys_to', object: 'fly' })
    await insertEdge(t.store, { subject: 'fly', predicate: 'runs_on', object: 'firecracker' })
    expect(await match('fly')).toEqual(['fly'])
  })

  it('ignores retracted edges and other workspaces', async () => {
    await insertEdge(t.store, { subject: 'mysql', predicate: 'uses', object: 'innodb', status: 'retracted' })
    await insertEdge(t.store, { subject: 'oracle', predicate: 'uses', object: 'plsql', workspaceId: 'other' })
    expect(await match('mysql oracle')).toEqual([])
  })

  it('orders matches by where they occur in the message', async () => {
    await insertEdge(t.store, { subject: 'zeta', predicate: 'uses', object: 'alpha' })
    await insertEdge(t.store, { subject: 'alpha', predicate: 'uses', object: 'zeta' })
    expect(await match('zeta then alpha')).toEqual(['zeta', 'alpha'])
  })
})

describe('expandByType', () => {
  let t: TestStore
  beforeEach(() => {
    t = openTestStore()
  })
  afterEach(() => t.close())

  it('adds same-type entities, best evidenced first, capped per entity, and reports own types', async () => {
    await insertEntityType(t.store, 'uv', 'package_manager', 5)
    await insertEntityType(t.store, 'pip', 'package_manager', 3)
    await insertEntityType(t.store, 'poetry', 'package_manager', 9)
    await insertEntityType(t.store, 'conda', 'package_manager', 1)
    await insertEntityType(t.store, 'django', 'framework', 1)
    const { expansions, types } = await expandByType(t.store, WS, ['uv'], 2)
    expect(types).toEqual(new Map([['uv', 'package_manager']]))
    expect([...expansions]).toEqual([
      ['poetry', { entity: 'uv', entityType: 'package_manager' }],
      ['pip', { entity: 'uv', entityType: 'package_manager' }],
    ])
    expect((await expandByType(t.store, WS, ['uv', 'pip'], 5)).expansions.has('pip')).toBe(false)
    expect((await expandByType(t.store, WS, ['unknown'], 5)).expansions.size).toBe(0)
  })
})
