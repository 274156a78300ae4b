import { describe, expect, it } from 'vitest'
import { dropNulls, nestedDeeperThan, stripNul } from './sanitize'

/** `[[[…"a\u0000"…]]]` parsed from text: building it with JSON.stringify would itself recurse. */
const nestedList = (levels: number) => JSON.parse(`${'['.repeat(levels)}"a\\u0000"${']'.repeat(levels)}`)

describe('stripNul', () => {
  it('strips NULs from every string and key, keeping order, arrays and scalars', () => {
    const parsed = JSON.parse('{"k\\u0000":"v\\u0000","list":[1,"x\\u0000y",null,true],"z":{"a\\u0000b":{}}}')
    expect(stripNul(parsed)).toEqual({ k: 'v', list: [1, 'xy', null, true], z: { ab: {} } })
    expect(Object.keys(stripNul(parsed) as object)).toEqual(['k', 'list', 'z'])
    expect(stripNul('a\u0000b')).toBe('ab')
    expect(stripNul(7)).toBe(7)
  })

  it('keeps a __proto__ key a plain key, as JSON.parse made it', () => {
    const copy = stripNul(JSON.parse('{"__proto__":{"polluted":"yes\\u0000"}}')) as Record<string, unknown>
    expect(Object.getPrototypeOf(copy)).toBe(Object.prototype)
    expect(Object.hasOwn(copy, '__proto__')).toBe(true)
  })

  it('walks 200,000 levels without exhausting the stack', () => {
    let item = stripNul(nestedList(200_000))
    for (let level = 0; level < 200_000; level++) item = (item as unknown[])[0]
    expect(item).toBe('a')
  })
})

describe('nestedDeeperThan', () => {
  it('counts {} as one level and a scalar as none', () => {
    expect(nestedDeeperThan('x', 0)).toBe(false)
    expect(nestedDeeperThan({}, 0)).toBe(true)
    expect(nestedDeeperThan({ a: { b: [] } }, 3)).toBe(false)
    expect(nestedDeeperThan({ a: { b: [] } }, 2)).toBe(true)
    expect(nestedDeeperThan([1, [2, [3]]], 2)).toBe(true)
  })

  it('answers for 1,000,000 levels without exhausting the stack', () => {
    expect(nestedDeeperThan(nestedList(1_000_000), 32)).toBe(true)
    expect(nestedDeeperThan(nestedList(32), 32)).toBe(false)
  })
})

describe('dropNulls', () => {
  it('drops null entries at every level and keeps a __proto__ key a plain key', () => {
    const parsed = JSON.parse('{"a":null,"b":{"c":null,"d":1},"__proto__":{"e":null,"f":2}}')
    const kept = dropNulls(parsed)
    expect(JSON.stringify(kept)).toBe('{"b":{"d":1},"__proto__":{"f":2}}')
    expect(Object.getPrototypeOf(kept)).toBe(Object.prototype)
  })
})
