import { describe, expect, it } from 'vitest'
import { deltas } from './dialectic-route'
import { splitText } from './split-text'

describe('splitText', () => {
  it('keeps short text whole and never exceeds the maximum', () => {
    expect(splitText('', 10)).toEqual([''])
    expect(splitText('hello', 10)).toEqual(['hello'])
    const text = Array.from({ length: 50 }, (_, i) => `word${i}`).join(' ')
    const pieces = splitText(text, 40)
    expect(pieces.join('')).toBe(text)
    expect(pieces.every((p) => p.length <= 40)).toBe(true)
  })

  it('prefers paragraph boundaries and does not split surrogate pairs', () => {
    expect(splitText(`${'a'.repeat(8)}\n\n${'b'.repeat(8)}`, 12)).toEqual([
      `${'a'.repeat(8)}\n\n`,
      'b'.repeat(8),
    ])
    const emoji = '😀'.repeat(10)
    const pieces = splitText(emoji, 5)
    expect(pieces.join('')).toBe(emoji)
    expect(pieces.every((p) => !/[\ud800-\udbff]$/.test(p))).toBe(true)
  })
})

describe('deltas', () => {
  it('splits an answer into chunks that concatenate back exactly', () => {
    const answer = 'From memory:\n\n- one two three four five six seven eight nine ten\n- eleven'
    const chunks = deltas(answer)
    expect(chunks.length).toBeGreaterThan(1)
    expect(chunks.join('')).toBe(answer)
    expect(deltas('')).toEqual([])
  })
})
