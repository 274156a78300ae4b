import { describe, expect, it } from 'vitest'
import { resultJson, toResult } from './harness'
import { scoreQuestion } from './score'

describe('LoCoMo result JSON', () => {
  it('has the issue shape with "1-4" first in each table', () => {
    const scores = [
      scoreQuestion(1, ['D1:1'], ['D1:1']),
      scoreQuestion(4, ['D1:2', 'D1:3'], ['D9:9', 'D1:2']),
      scoreQuestion(5, ['D2:1'], []),
    ]
    const line = resultJson(toResult(scores, [4, 1, 3, 2], 10.4, 20.6))
    expect(line).toBe(
      '{"questions":3,' +
        '"recall":{"1-4":{"5":0.75,"10":0.75,"20":0.75},"1":{"5":1,"10":1,"20":1},"4":{"5":0.5,"10":0.5,"20":0.5},"5":{"5":0,"10":0,"20":0}},' +
        '"anyHit":{"1-4":{"5":1,"10":1,"20":1},"1":{"5":1,"10":1,"20":1},"4":{"5":1,"10":1,"20":1},"5":{"5":0,"10":0,"20":0}},' +
        '"ingestMs":10,"dreamMs":21,"queryMsP50":3,"queryMsP95":4}',
    )
    expect(Object.keys(JSON.parse(line))).toEqual([
      'questions',
      'recall',
      'anyHit',
      'ingestMs',
      'dreamMs',
      'queryMsP50',
      'queryMsP95',
    ])
  })
})
