import { describe, expect, it } from 'vitest'
import type { LocomoConversation, LocomoQuestion } from './dataset'
import { findMiss, formatMiss, turnTexts } from './misses'

const question: LocomoQuestion = {
  id: 'locomo_0_qa7',
  question: 'When did Ann adopt her dog?',
  category: 2,
  evidence: ['D1:2', 'D2:1'],
}

const conversation: LocomoConversation = {
  index: 0,
  sampleId: 'conv-x',
  speakers: ['Ann', 'Bob'],
  skippedQuestions: 0,
  questions: [question],
  sessions: [
    {
      index: 1,
      startedAt: '2023-06-01T09:00:00.000Z',
      turns: [
        { diaId: 'D1:1', speaker: 'Ann', text: 'Hi Bob!', createdAt: '2023-06-01T09:00:00.000Z' },
        {
          diaId: 'D1:2',
          speaker: 'Bob',
          text: 'How is   the\npuppy?',
          createdAt: '2023-06-01T09:00:30.000Z',
        },
      ],
    },
    {
      index: 2,
      startedAt: '2023-07-01T09:00:00.000Z',
      turns: [
        {
          diaId: 'D2:1',
          speaker: 'Ann',
          text: 'I adopted Rex last week, a very energetic dog',
          createdAt: '2023-07-01T09:00:00.000Z',
        },
      ],
    },
  ],
}

describe('misses', () => {
  it('reports a question only when some evidence is outside the top k', () => {
    expect(findMiss(question, ['D2:1', 'D1:2', 'D1:1'], 2)).toBeNull()
    expect(findMiss(question, ['D2:1', 'D1:1', 'D1:2'], 2)).toEqual({
      id: 'locomo_0_qa7',
      category: 2,
      question: 'When did Ann adopt her dog?',
      evidence: [
        { turn: 'D1:2', rank: 3 },
        { turn: 'D2:1', rank: 1 },
      ],
      returned: ['D2:1', 'D1:1'],
    })
    expect(findMiss(question, [], 10)?.returned).toEqual([])
    expect(findMiss(question, [], 10)?.evidence.map((e) => e.rank)).toEqual([null, null])
  })

  it('prints the question, found and missing evidence, and what was returned instead', () => {
    const miss = findMiss(question, ['D1:1', 'D2:1', 'D1:2'], 2)
    if (!miss) throw new Error('expected a miss')
    expect(formatMiss(miss, turnTexts(conversation, 30))).toEqual([
      'locomo_0_qa7 (category 2): When did Ann adopt her dog?',
      '  evidence:',
      '    - D1:2    #3   Bob: How is the puppy?',
      '    + D2:1    #2   Ann: I adopted Rex last week,…',
      '  returned (top 2):',
      '     1 ~ D1:1    Ann: Hi Bob!',
      '     2 * D2:1    Ann: I adopted Rex last week,…',
    ])
  })
})
