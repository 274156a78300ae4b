import { describe, expect, it } from 'vitest'
import { createLruMap } from './lru-map'

describe('createLruMap', () => {
  it('drops the least recently used entry beyond its capacity; get and set count as use', () => {
    const map = createLruMap<string, number>(2)
    map.set('a', 1)
    map.set('b', 2)
    expect(map.get('a')).toBe(1)
    map.set('c', 3)
    expect([map.get('a'), map.get('b'), map.get('c')]).toEqual([1, undefined, 3])
    map.set('a', 10)
    map.set('d', 4)
    expect([map.get('a'), map.get('c'), map.get('d')]).toEqual([10, undefined, 4])
    map.delete('a')
    expect(map.get('a')).toBeUndefined()
  })

  it('returns a falsy value it holds', () => {
    const map = createLruMap<string, number>(1)
    map.set('zero', 0)
    expect(map.get('zero')).toBe(0)
  })
})
