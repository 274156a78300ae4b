import { describe, expect, it } from 'vitest'
import { buildTokenOverlapIndex, expandByTokenOverlap } from './token-index'

describe('token-overlap expansion', () => {
  const index = buildTokenOverlapIndex([
    'atta_van_westreenen',
    'atta_projects',
    'atta',
    'medflow',
    'data_pipeline',
    'data_lake',
    'data_warehouse',
    'x_y',
  ])

  it('links canonicals sharing a rare segment, naming the token', () => {
    const out = expandByTokenOverlap(index, ['atta_van_westreenen'], 20, 5)
    expect([...out]).toEqual([
      ['atta', { entity: 'atta_van_westreenen', token: 'atta' }],
      ['atta_projects', { entity: 'atta_van_westreenen', token: 'atta' }],
    ])
  })

  it('drops tokens shared by more canonicals than the threshold', () => {
    expect(expandByTokenOverlap(index, ['data_pipeline'], 2, 5).size).toBe(0)
    expect([...expandByTokenOverlap(index, ['data_pipeline'], 3, 5).keys()]).toEqual([
      'data_lake',
      'data_warehouse',
    ])
  })

  it('caps expansions per matched entity and never returns a matched entity', () => {
    expect(expandByTokenOverlap(index, ['data_pipeline'], 3, 1).size).toBe(1)
    expect([...expandByTokenOverlap(index, ['atta_van_westreenen', 'atta'], 20, 5).keys()]).toEqual([
      'atta_projects',
    ])
  })

  it('expands only multi-segment canonicals and ignores one-letter segments', () => {
    expect(expandByTokenOverlap(index, ['atta'], 20, 5).size).toBe(0)
    expect(expandByTokenOverlap(index, ['x_y'], 20, 5).size).toBe(0)
  })
})
