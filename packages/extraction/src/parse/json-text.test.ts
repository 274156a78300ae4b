import { describe, expect, it } from 'vitest'
import { extractJson } from './json-text'

describe('extractJson', () => {
  it.each([
    ['bare object', '{"a":1}', { a: 1 }],
    ['code fence', 'Sure!\n```json\n{"a":1}\n```\nanything else?', { a: 1 }],
    ['fence without language', '```\n[1,2]\n```', [1, 2]],
    ['chatter around', 'Here you go: {"a": {"b": "}"}} Hope it helps {', { a: { b: '}' } }],
    ['escaped quotes in strings', 'x {"a":"he said \\"{\\""} y', { a: 'he said "{"' }],
    ['first valid of several', 'bad {oops} then {"ok":true}', { ok: true }],
  ])('finds the JSON in %s', (_, text, expected) => {
    expect(extractJson(text)).toEqual(expected)
  })

  it.each([[''], ['no json here'], ['{"truncated": "tri'], ['"just a string"'], ['42']])(
    'returns undefined for %j',
    (text) => {
      expect(extractJson(text)).toBeUndefined()
    },
  )
})
