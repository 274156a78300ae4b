import { loadTokenCounter, type TokenCounter } from '@hymem/core-store'
import fc from 'fast-check'
import { beforeAll, describe, expect, it } from 'vitest'
import { packContext } from './pack'
import type { ContextLine } from './render'

const line = (id: number, text: string): ContextLine => ({
  kind: 'hit',
  id,
  text: `- ${text}`,
  messageIds: [id],
})

describe('packContext', () => {
  let count: TokenCounter
  beforeAll(async () => {
    count = await loadTokenCounter()
  })

  it('puts the profile and insights first, then the items in ranked order', () => {
    const packed = packContext(
      {
        userMd:
          '<!-- HyMem:auto:profile:start -->\n# User\n\n- prefers pnpm\n<!-- HyMem:auto:profile:end -->',
        memoryMd: '# Memory\n- the API runs on Fly.io',
        lines: [line(1, 'first'), line(2, 'second')],
      },
      500,
      count,
    )
    expect(packed.text).toBe(
      [
        '## Profile',
        '# User',
        '- prefers pnpm',
        '',
        '## Insights',
        '# Memory',
        '- the API runs on Fly.io',
        '',
        '## Relevant memory (best first)',
        '- first',
        '- second',
      ].join('\n'),
    )
    expect(packed.tokens).toBe(count(packed.text))
    expect(packed.dropped).toEqual([])
  })

  it('leaves out an item that does not fit, and keeps later ones that do', () => {
    const big = line(2, 'word '.repeat(200))
    const packed = packContext(
      { userMd: '', memoryMd: '', lines: [line(1, 'a'), big, line(3, 'c')] },
      40,
      count,
    )
    expect(packed.text).toBe('## Relevant memory (best first)\n- a\n- c')
    expect(packed.dropped.map((d) => d.line.id)).toEqual([2])
    expect(packed.dropped[0]!.tokens).toBeGreaterThan(40)
  })

  it('gives the profile at most a quarter of the budget, cut at a line', () => {
    const userMd = Array.from({ length: 50 }, (_, i) => `- fact number ${i} about the user`).join('\n')
    const packed = packContext({ userMd, memoryMd: '', lines: [line(1, 'item')] }, 100, count)
    const profile = packed.text.split('\n\n')[0]!
    expect(count(profile)).toBeLessThanOrEqual(25)
    expect(profile.split('\n').length).toBeGreaterThan(1)
    expect(packed.text.endsWith('- item')).toBe(true)
  })

  it('returns an empty block when nothing fits', () => {
    const packed = packContext({ userMd: '# User', memoryMd: '', lines: [line(1, 'item')] }, 1, count)
    expect(packed).toEqual({
      text: '',
      tokens: 0,
      dropped: [{ line: line(1, 'item'), tokens: expect.any(Number) }],
    })
  })

  it('never exceeds the budget, keeps ranked order and accounts for every item (property)', () => {
    const text = fc.oneof(
      fc.string({ unit: 'grapheme', maxLength: 300 }),
      fc.string({ unit: 'binary', maxLength: 120 }),
      fc
        .array(fc.constantFrom('word', ' ', '\n', '<|endoftext|>', '🙂', '東京', '##', '-'), {
          maxLength: 60,
        })
        .map((parts) => parts.join('')),
    )
    fc.assert(
      fc.property(
        text,
        text,
        fc.array(text, { maxLength: 12 }),
        fc.integer({ min: 1, max: 400 }),
        (userMd, memoryMd, items, budget) => {
          const lines = items.map((item, i) => line(i, item))
          const packed = packContext({ userMd, memoryMd, lines }, budget, count)
          expect(count(packed.text)).toBeLessThanOrEqual(budget)
          expect(packed.tokens).toBe(count(packed.text))
          const dropped = new Set(packed.dropped.map((d) => d.line.id))
          const kept = lines.filter((l) => !dropped.has(l.id))
          expect(kept.length + dropped.size).toBe(lines.length)
          let at = 0
          for (const l of kept) {
            const found = packed.text.indexOf(l.text, at)
            expect(found).toBeGreaterThanOrEqual(0)
            at = found + l.text.length
          }
        },
      ),
      { numRuns: 300 },
    )
  })
})
