import type { Message } from '@hymem/core-store'
import { describe, expect, it } from 'vitest'
import { chunkLine } from './chunk'
import { chunkTurns } from './speakers'

const message = (id: number, peerId: string, role: Message['role'], content: string): Message =>
  ({ id, peerId, role, content }) as Message

describe('chunkTurns', () => {
  const messages = new Map([
    [1, message(1, 'alice', 'user', '  I use Rust.  ')],
    [2, message(2, 'bob', 'user', 'I use Go.')],
    [3, message(3, 'hermes', 'assistant', 'Noted both.')],
  ])

  it('gives each message its author and role, in chunk order', () => {
    expect(chunkTurns({ messageIds: [1, 2, 3] }, messages, 1000)).toEqual([
      { peerId: 'alice', role: 'user', text: 'I use Rust.' },
      { peerId: 'bob', role: 'user', text: 'I use Go.' },
      { peerId: 'hermes', role: 'assistant', text: 'Noted both.' },
    ])
  })

  it('cuts the turns where the chunk text was cut', () => {
    const text = [1, 2].map((id) => chunkLine(messages.get(id)!)).join('\n')
    const turns = chunkTurns({ messageIds: [1, 2] }, messages, text.length - 3)!
    expect(turns.map((t) => `${t.role}: ${t.text}`).join('\n')).toBe(text.slice(0, text.length - 3))
  })

  it('is undefined when a message is missing, so the chunk is read as plain text', () => {
    expect(chunkTurns({ messageIds: [1, 9] }, messages, 1000)).toBeUndefined()
    expect(chunkTurns({ messageIds: [] }, messages, 1000)).toBeUndefined()
  })
})
