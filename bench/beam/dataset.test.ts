import { mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterAll, describe, expect, it } from 'vitest'
import { createBm25Index } from '../locomo/baselines'
import { parseChats } from './chats'
import { chatsFolder, flattenSourceIds, loadBeamChat, parseTimeAnchor, stripPlanMarkers } from './dataset'

const dir = mkdtempSync(join(tmpdir(), 'hymem-beam-test-'))
afterAll(() => rmSync(dir, { recursive: true, force: true }))

function writeChat(size: string, number: number, files: Record<string, unknown>): void {
  const chat = join(dir, 'chats', size, String(number))
  mkdirSync(join(chat, 'probing_questions'), { recursive: true })
  for (const [name, content] of Object.entries(files))
    writeFileSync(join(chat, name), JSON.stringify(content))
}

const message = (id: number, role: string, content: string, extra: Record<string, string> = {}) => ({
  id,
  role,
  content,
  ...extra,
})

describe('BEAM chat selection', () => {
  it('expands ranges and lists in the order given, each chat once', () => {
    expect(parseChats('100K/11-13,500K/6,100K/12', false)).toEqual([
      { size: '100K', number: 11 },
      { size: '100K', number: 12 },
      { size: '100K', number: 13 },
      { size: '500K', number: 6 },
    ])
  })

  it('refuses held-out chats unless the final check is asked for', () => {
    expect(() => parseChats('100K/10', false)).toThrowErrorMatchingInlineSnapshot(
      `[Error: --chats: 100K/10 is held out for the final check (100K/1-10, 500K/1-5); develop on 100K/11-20,500K/6-35, or pass --final-check]`,
    )
    expect(() => parseChats('500K/1-6', false)).toThrow('500K/1 is held out')
    expect(parseChats('500K/5', true)).toEqual([{ size: '500K', number: 5 }])
  })

  it('refuses malformed entries and chats BEAM does not have', () => {
    expect(() => parseChats('1M/1', true)).toThrow('is not SIZE/N')
    expect(() => parseChats('100K/21', true)).toThrow('outside 100K/1-20')
    expect(() => parseChats('500K/9-7', true)).toThrow('outside 500K/1-35')
  })
})

describe('BEAM dataset loading', () => {
  it('parses time anchors, strips plan markers and flattens every source-id shape', () => {
    expect(parseTimeAnchor('March-15-2024')?.toISOString()).toBe('2024-03-15T00:00:00.000Z')
    expect(parseTimeAnchor('soon')).toBeNull()
    expect(stripPlanMarkers('I use Vim. ->-> 1,3')).toBe('I use Vim.')
    expect(flattenSourceIds([[4, 2], 7])).toEqual([4, 2, 7])
    expect(flattenSourceIds({ original_info: [3], updated_info: ['9'] })).toEqual([3, 9])
    expect(flattenSourceIds(null)).toEqual([])
  })

  it('reads the truncated chat when present, one session per batch, roles kept, evidence as turn ids', () => {
    const batches = [
      {
        batch_number: 1,
        time_anchor: 'March-15-2024',
        turns: [
          [
            message(0, 'user', 'I am Dana and I write Rust. ->-> 1,1'),
            message(1, 'assistant', 'Nice to meet you, Dana.'),
          ],
        ],
      },
      {
        batch_number: 2,
        turns: [[message(2, 'user', 'Always answer in TypeScript.', { time_anchor: 'May-02-2024' })]],
      },
    ]
    writeChat('100K', 12, {
      'chat_trunecated.json': batches,
      'chat.json': [{ batch_number: 1, turns: [[message(0, 'user', 'untruncated')]] }],
      'probing_questions/probing_questions.json': {
        abstention: [{ question: 'What is my cat called?' }],
        information_extraction: [
          { question: 'Which language do I write?', difficulty: 'easy', source_chat_ids: [0] },
        ],
        knowledge_update: [{ question: 'Missing?', source_chat_ids: { original_info: [99] } }],
        instruction_following: [{ question: 'Show me a loop', source_chat_ids: [[2]] }],
      },
    })
    expect(chatsFolder(dir)).toBe(join(dir, 'chats'))
    const chat = loadBeamChat(chatsFolder(dir), { size: '100K', number: 12 })
    expect(chat.sampleId).toBe('100K/12')
    expect(chat.sessions.map((s) => [s.index, s.startedAt])).toEqual([
      [1, '2024-03-15T00:00:00.000Z'],
      [2, '2024-05-02T00:00:00.000Z'],
    ])
    expect(chat.sessions[0]?.turns).toEqual([
      {
        diaId: 'D1:0',
        speaker: 'user',
        role: 'user',
        text: 'I am Dana and I write Rust.',
        createdAt: '2024-03-15T00:00:00.000Z',
      },
      {
        diaId: 'D1:1',
        speaker: 'assistant',
        role: 'assistant',
        text: 'Nice to meet you, Dana.',
        createdAt: '2024-03-15T00:01:00.000Z',
      },
    ])
    expect(chat.questions).toEqual([
      {
        id: '100K/12/information_extraction/0',
        question: 'Which language do I write?',
        category: 'information_extraction',
        difficulty: 'easy',
        evidence: ['D1:0'],
      },
      {
        id: '100K/12/instruction_following/0',
        question: 'Show me a loop',
        category: 'instruction_following',
        difficulty: 'unlabelled',
        evidence: ['D2:2'],
      },
    ])
    expect([chat.abstentions, chat.skippedQuestions]).toEqual([1, 1])
  })

  it('names the folder it expected when there are no chats', () => {
    expect(() => chatsFolder(join(dir, 'nowhere'))).toThrow('no BEAM chats under')
  })
})

describe('plain BM25 baseline', () => {
  it('ranks the turn holding the rare query term first and leaves non-matching turns out', () => {
    const index = createBm25Index([
      { id: 'a', text: 'the the the weather is nice' },
      { id: 'b', text: 'I moved to Lisbon in May' },
      { id: 'c', text: 'nothing shared here' },
    ])
    expect(index.rank('When did the user move to Lisbon?')).toEqual(['b', 'a'])
  })
})
