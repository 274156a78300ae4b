import { describe, expect, it } from 'vitest'
import { diversifyBySession } from './session-diversity'

const item = (id: number, score: number, sessionId: string | undefined) => ({ id, score, sessionId })

describe('diversifyBySession', () => {
  const ranked = [item(1, 1, 'a'), item(2, 0.9, 'a'), item(3, 0.8, 'a'), item(4, 0.6, 'b'), item(5, 0.2, 'c')]

  it('lets the next session in once its own turns have decayed below it', () => {
    expect(diversifyBySession(ranked, 0.5).map((i) => i.id)).toEqual([1, 4, 2, 3, 5])
    expect(diversifyBySession(ranked, 0.8).map((i) => i.id)).toEqual([1, 2, 4, 3, 5])
  })

  it('keeps the order at decay 1 and counts items without a session as their own', () => {
    expect(diversifyBySession(ranked, 1)).toEqual(ranked)
    const loose = [item(1, 1, undefined), item(2, 0.9, undefined), item(3, 0.5, 'a')]
    expect(diversifyBySession(loose, 0.1).map((i) => i.id)).toEqual([1, 2, 3])
    expect(diversifyBySession([], 0.5)).toEqual([])
  })
})
