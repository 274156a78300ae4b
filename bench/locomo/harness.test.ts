import { describe, expect, it } from 'vitest'
import { formatResult, resultJson, toResult } from './harness'
import { scoreQuestion } from './score'

const scores = [
  scoreQuestion(1, ['D1:1'], ['D1:1'], 'conv-a'),
  scoreQuestion(4, ['D1:2', 'D2:3'], ['D9:9', 'D1:2'], 'conv-a'),
  scoreQuestion(2, ['D3:1'], ['D3:4', 'D1:1'], 'conv-b'),
  scoreQuestion(5, ['D2:1'], [], 'conv-b'),
]

const speakerFacts = [{ conversation: 'conv-a', speakers: { Ann: 3, Ben: 1 }, unattributed: 0, other: 2 }]

describe('LoCoMo result JSON', () => {
  it('has the issue shape with "1-4" first in each table', () => {
    const line = resultJson(toResult(scores, [4, 1, 3, 2], 10.4, 20.6, speakerFacts))
    expect(line).toBe(
      '{"questions":4,' +
        '"recall":{"1-4":{"5":0.5,"10":0.5,"20":0.5},"1":{"5":1,"10":1,"20":1},"2":{"5":0,"10":0,"20":0},"4":{"5":0.5,"10":0.5,"20":0.5},"5":{"5":0,"10":0,"20":0}},' +
        '"anyHit":{"1-4":{"5":0.667,"10":0.667,"20":0.667},"1":{"5":1,"10":1,"20":1},"2":{"5":0,"10":0,"20":0},"4":{"5":1,"10":1,"20":1},"5":{"5":0,"10":0,"20":0}},' +
        '"sessionRecall":{"1-4":{"5":0.833,"10":0.833,"20":0.833},"1":{"5":1,"10":1,"20":1},"2":{"5":1,"10":1,"20":1},"4":{"5":0.5,"10":0.5,"20":0.5},"5":{"5":0,"10":0,"20":0}},' +
        '"conversations":[{"conversation":"conv-a","questions":2,"recall":0.75,"sessionRecall":0.75},{"conversation":"conv-b","questions":1,"recall":0,"sessionRecall":1}],' +
        '"recall10StdDev":0.53,"ingestMs":10,"dreamMs":21,"queryMsP50":3,"queryMsP95":4,' +
        '"speakerFacts":[{"conversation":"conv-a","speakers":{"Ann":3,"Ben":1},"unattributed":0,"other":2}]}',
    )
    expect(Object.keys(JSON.parse(line))).toEqual([
      'questions',
      'recall',
      'anyHit',
      'sessionRecall',
      'conversations',
      'recall10StdDev',
      'ingestMs',
      'dreamMs',
      'queryMsP50',
      'queryMsP95',
      'speakerFacts',
    ])
  })

  it('prints session recall beside turn recall and the per-conversation spread', () => {
    expect(formatResult(toResult(scores, [4, 1, 3, 2], 10.4, 20.6, speakerFacts))).toEqual([
      'category   recall@5  recall@10  recall@20   any@5  any@10  any@20   session@5  session@10  session@20',
      '1-4        0.500     0.500      0.500      0.667   0.667   0.667    0.833      0.833       0.833',
      '1          1.000     1.000      1.000      1.000   1.000   1.000    1.000      1.000       1.000',
      '2          0.000     0.000      0.000      0.000   0.000   0.000    1.000      1.000       1.000',
      '4          0.500     0.500      0.500      1.000   1.000   1.000    0.500      0.500       0.500',
      '5          0.000     0.000      0.000      0.000   0.000   0.000    0.000      0.000       0.000',
      'recall@10 (1-4) per conversation: conv-a 0.750, conv-b 0.000; std dev 0.530',
      'facts per speaker, conv-a: Ann 3, Ben 1, unattributed 0, other 2',
      'ingest 10 ms, dream 21 ms, query p50 3 ms / p95 4 ms',
    ])
  })
})
