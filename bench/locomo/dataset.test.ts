import { mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { loadLocomo, normaliseEvidence, parseLocomoDate } from './dataset'
import { rankTurns, scoreQuestion, summarise } from './score'

const dir = mkdtempSync(join(tmpdir(), 'hymem-locomo-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

describe('LoCoMo dataset loading', () => {
  it('parses session dates as UTC', () => {
    expect(parseLocomoDate('1:56 pm on 8 May, 2023').toISOString()).toBe('2023-05-08T13:56:00.000Z')
    expect(parseLocomoDate('12:09 am on 13 September, 2023').toISOString()).toBe('2023-09-13T00:09:00.000Z')
    expect(() => parseLocomoDate('yesterday')).toThrow('unrecognised LoCoMo date')
  })

  it('normalises evidence ids: lists in one string, leading zeros, stray colons, duplicates', () => {
    expect(normaliseEvidence(['D8:6; D9:17', 'D30:05', 'D:11:26', 'D8:6', 'nonsense'])).toEqual([
      'D8:6',
      'D9:17',
      'D30:5',
      'D11:26',
    ])
  })

  it('loads turns with captions, applies audit corrections and skips questions without real evidence', () => {
    const data = join(dir, 'mini.json')
    const audit = join(dir, 'audit.json')
    writeFileSync(
      data,
      JSON.stringify([
        {
          sample_id: 'conv-x',
          conversation: {
            speaker_a: 'Ann',
            speaker_b: 'Bob',
            session_1_date_time: '9:00 am on 1 June, 2023',
            session_1: [
              { speaker: 'Ann', dia_id: 'D1:1', text: 'I adopted a dog.' },
              { speaker: 'Bob', dia_id: 'D1:2', text: 'Look!', blip_caption: 'a photo of a cake' },
            ],
          },
          qa: [
            { question: 'What did Ann adopt?', evidence: ['D1:1'], category: 4 },
            { question: 'What did Bob show?', evidence: ['D1:1'], category: 1 },
            { question: 'Ghost?', evidence: ['D7:3'], category: 2 },
          ],
        },
      ]),
    )
    writeFileSync(
      audit,
      JSON.stringify([
        { question_id: 'locomo_0_qa1', error_type: 'WRONG_CITATION', correct_evidence: ['D1:2'] },
      ]),
    )
    const [conversation] = loadLocomo(data, audit)
    expect(conversation?.sessions[0]?.turns[1]).toEqual({
      diaId: 'D1:2',
      speaker: 'Bob',
      text: 'Look! [shared an image: a photo of a cake]',
      createdAt: '2023-06-01T09:00:30.000Z',
    })
    expect(conversation?.questions.map((q) => [q.id, q.evidence])).toEqual([
      ['locomo_0_qa0', ['D1:1']],
      ['locomo_0_qa1', ['D1:2']],
    ])
    expect(conversation?.skippedQuestions).toBe(1)
  })
})

describe('LoCoMo scoring', () => {
  it('expands ranked items to turns in order without duplicates', () => {
    const turnOf = (id: number) => ({ 1: 'D1:1', 2: 'D1:2', 3: 'D1:3' })[id]
    expect(rankTurns([{ messageIds: [2, 1] }, { messageIds: [1, 3, 99] }], turnOf)).toEqual([
      'D1:2',
      'D1:1',
      'D1:3',
    ])
  })

  it('computes recall and any-hit at each k, per category and for 1-4', () => {
    const ranked = Array.from({ length: 20 }, (_, i) => `D1:${i + 1}`)
    const a = scoreQuestion(1, ['D1:3', 'D1:8'], ranked)
    expect(a.recall).toEqual({ 5: 0.5, 10: 1, 20: 1 })
    expect(a.anyHit).toEqual({ 5: 1, 10: 1, 20: 1 })
    const b = scoreQuestion(5, ['D1:30'], ranked)
    expect(b.recall).toEqual({ 5: 0, 10: 0, 20: 0 })
    const table = summarise([a, b], 'recall')
    expect(table).toEqual({
      '1-4': { 5: 0.5, 10: 1, 20: 1 },
      1: { 5: 0.5, 10: 1, 20: 1 },
      5: { 5: 0, 10: 0, 20: 0 },
    })
  })
})
