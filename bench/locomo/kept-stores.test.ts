import { existsSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs'
import { tmpdir } from 'node:os'
import { join } from 'node:path'
import { afterEach, beforeEach, describe, expect, it } from 'vitest'
import type { LocomoConversation } from './dataset'
import { prepareConversation } from './harness'

const conversation = (text: string): LocomoConversation => ({
  index: 0,
  sampleId: 'conv-kept',
  speakers: ['Ana', 'Ben'],
  sessions: [
    {
      index: 1,
      startedAt: '2023-05-08T13:00:00.000Z',
      turns: [
        { diaId: 'D1:1', speaker: 'Ana', text, createdAt: '2023-05-08T13:00:00.000Z' },
        { diaId: 'D1:2', speaker: 'Ben', text: 'Nice, I use Vim.', createdAt: '2023-05-08T13:01:00.000Z' },
      ],
    },
  ],
  questions: [],
  skippedQuestions: 0,
})

async function countMessages(folder: string, text: string): Promise<{ dreamed: boolean; messages: number }> {
  const prepared = await prepareConversation(conversation(text), { embeddings: null, keepIn: folder })
  try {
    const { counts } = await prepared.memory.stats()
    expect([...prepared.turnOf.values()].sort()).toEqual(['D1:1', 'D1:2'])
    return { dreamed: prepared.dreamMs > 0, messages: counts.messages ?? 0 }
  } finally {
    await prepared.dispose()
  }
}

describe('kept stores', () => {
  let folder: string
  beforeEach(() => {
    folder = join(mkdtempSync(join(tmpdir(), 'hymem-kept-')), 'conv')
  })
  afterEach(() => {
    rmSync(join(folder, '..'), { recursive: true, force: true })
  })

  it('reuses a dreamed store for the same turns and dreams again when they change', async () => {
    expect(await countMessages(folder, 'I use Emacs.')).toEqual({ dreamed: true, messages: 2 })
    expect(existsSync(join(folder, 'kept.json'))).toBe(true)
    expect(await countMessages(folder, 'I use Emacs.')).toEqual({ dreamed: false, messages: 2 })
    expect(await countMessages(folder, 'I use Helix.')).toEqual({ dreamed: true, messages: 2 })
  })

  it('dreams again over a store whose manifest is unreadable', async () => {
    await countMessages(folder, 'I use Emacs.')
    writeFileSync(join(folder, 'kept.json'), '{"key": ')
    expect(await countMessages(folder, 'I use Emacs.')).toEqual({ dreamed: true, messages: 2 })
  })
})
